// One rendering of every failed API answer, so each page handles 401/403/404/429/5xx the same way.
import { h } from './dom.js';

function explain(err) {
  const status = err.status ?? 0;
  if (status === 0) return ['Cannot reach the hub', err.message];
  if (status === 401) return ['Not signed in (401)', 'The hub refused the token: it is missing, expired or not valid here. Enter a fresh token.'];
  if (status === 403) return ['Not allowed (403)', 'Your token is valid but lacks the permission this page needs.'];
  if (status === 404) return ['Not found (404)', 'Nothing exists at this address for your tenant.'];
  if (status === 429) return ['Too many requests (429)', `The hub asked to wait ${err.retryAfter ?? 1} s before trying again.`];
  if (status >= 500) return [`The hub failed (${status})`, 'This is on the hub\'s side; try again shortly.'];
  return [`Request refused (${status})`, err.message];
}

/** The error block: a title, the explanation, the problem's own detail and code as text. */
export function errorBlock(err, retry, level = 'h2') {
  const [title, text] = explain(err);
  const problem = err.problem || {};
  const fields = (problem.errors || []).map((item) => h('li', {}, `${item.pointer || item.field || item.location || ''} ${item.detail || item.message || ''}`));
  return h('section', { class: 'error', role: 'alert', dataset: { status: String(err.status ?? 0) } },
    h(level, {}, title),
    h('p', {}, text),
    problem.detail && problem.detail !== text ? h('p', { class: 'detail' }, problem.detail) : null,
    problem.code ? h('p', { class: 'code' }, `code: ${problem.code}`) : null,
    fields.length ? h('ul', {}, fields) : null,
    err.status === 401 ? h('p', {}, h('a', { href: '#/token', class: 'btn' }, 'Enter a token')) : null,
    retry ? h('button', { type: 'button', onclick: retry }, 'Try again') : null);
}
