// The hub's public API, called with the user's bearer token. Problems (RFC 9457) become ApiError;
// a 429 is retried after its Retry-After (a couple of times) while the page says it is waiting.
import { getToken } from './token.js';
import { notify } from './notice.js';

const MAX_RATE_LIMIT_RETRIES = 2;

export class ApiError extends Error {
  constructor(status, problem, retryAfter) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.retryAfter = retryAfter;
  }
}

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date); 1 when absent. */
export function retryAfterSeconds(header) {
  if (!header) return 1;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1 : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function query(params) {
  const pairs = Object.entries(params || {}).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return pairs.length ? `?${new URLSearchParams(pairs)}` : '';
}

async function readBody(response) {
  const text = await response.text();
  if (!text) return null;
  try { return JSON.parse(text); } catch { return { detail: text.slice(0, 500) }; }
}

async function once(method, path, params, body, headers) {
  const init = { method, headers: { Accept: 'application/json', ...headers } };
  const token = getToken();
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path + query(params), init);
  } catch (err) {
    throw new ApiError(0, { title: 'Network error', detail: 'The hub could not be reached.' });
  }
  return { response, data: await readBody(response) };
}

/** Call the API; resolves to {data, headers} or throws ApiError. */
export async function api(method, path, { params, body, headers } = {}) {
  for (let attempt = 0; ; attempt += 1) {
    const { response, data } = await once(method, path, params, body, headers);
    if (response.ok) return { data, headers: response.headers, status: response.status };
    const wait = retryAfterSeconds(response.headers.get('Retry-After'));
    if (response.status === 429 && attempt < MAX_RATE_LIMIT_RETRIES) {
      notify(`Rate limited by the hub: retrying in ${wait} s (Retry-After).`, 'warn');
      await sleep(wait * 1000);
      continue;
    }
    throw new ApiError(response.status, data, response.status === 429 ? wait : undefined);
  }
}

export const get = (path, params) => api('GET', path, { params });

/** A fresh idempotency key for one user action (the API dedupes retried POSTs with it). */
export function idempotencyKey() {
  return { 'X-Idempotency': crypto.randomUUID() };
}
