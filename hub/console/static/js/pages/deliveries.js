// A subscription's delivery log: jobs with their attempts, resend, and the success/failure chart
// and latency percentiles drawn from the attempts the log shows.
import { h, replace, table, badge, emptyState, when, loading } from '../dom.js';
import { api, get, idempotencyKey } from '../api.js';
import { errorBlock } from '../errors.js';
import { notify } from '../notice.js';
import { stackedBars, percentile } from '../chart.js';

const LOG_SIZE = 50;
const SUCCESS = new Set(['delivered', 'available']);

function attemptsList(job) {
  if (!job.attempts?.length) return h('span', { class: 'muted' }, 'no attempt yet');
  return h('details', {},
    h('summary', {}, `${job.attempts.length} attempt${job.attempts.length === 1 ? '' : 's'}`),
    h('ol', { class: 'attempts' }, job.attempts.map((a) => h('li', {},
      badge(a.outcome), ' ', when(a.attempted_at),
      a.status_code ? ` HTTP ${a.status_code}` : '', a.error_class ? ` ${a.error_class}` : '',
      a.latency_ms != null ? ` ${a.latency_ms} ms` : '',
      a.detail ? h('div', { class: 'detail' }, a.detail) : null))));
}

/** Attempts bucketed by hour: delivered vs not, for the chart. */
function hourlyBuckets(jobs) {
  const buckets = new Map();
  for (const attempt of jobs.flatMap((job) => job.attempts || [])) {
    const hour = String(attempt.attempted_at || '').slice(0, 13);
    if (!hour) continue;
    const bucket = buckets.get(hour) || { label: `${hour.replace('T', ' ')}h`, values: { ok: 0, failed: 0 } };
    bucket.values[SUCCESS.has(attempt.outcome) ? 'ok' : 'failed'] += 1;
    buckets.set(hour, bucket);
  }
  return [...buckets.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, bucket]) => bucket);
}

function latencyFacts(jobs) {
  const latencies = jobs.flatMap((job) => job.attempts || []).map((a) => a.latency_ms).filter((v) => v != null);
  const fmt = (v) => (v == null ? '—' : `${v} ms`);
  return h('p', { id: 'latency' }, `Latency over the ${latencies.length} attempts shown: p50 ${fmt(percentile(latencies, 50))}, p99 ${fmt(percentile(latencies, 99))}.`);
}

/** The newest failed attempt among the jobs shown: its class, status and detail (as text). */
function lastError(jobs) {
  const failed = jobs.flatMap((job) => job.attempts || []).filter((a) => !SUCCESS.has(a.outcome) && a.error_class)
    .sort((a, b) => String(b.attempted_at).localeCompare(String(a.attempted_at)));
  if (!failed.length) return h('p', { id: 'last-error' }, 'Last error: none among the attempts shown.');
  const a = failed[0];
  return h('p', { id: 'last-error' }, 'Last error: ', when(a.attempted_at), ` ${a.error_class}`,
    a.status_code ? ` (HTTP ${a.status_code})` : '', a.detail ? ` — ${a.detail}` : '');
}

async function resend(subId, job, reload) {
  try {
    const { data, headers } = await api('POST', `/v1/subscriptions/${encodeURIComponent(subId)}/deliveries/${encodeURIComponent(job.id)}/resend`, { headers: idempotencyKey() });
    // N77: an ordered subscription's resend goes at once, outside its key's order; the API says so.
    const order = headers.get('X-Delivery-Order') === 'out-of-order' ? ', sent out of its key\'s order' : '';
    notify(`Resend queued as job ${data.delivery.id}${order}.`);
    await reload();
  } catch (err) {
    notify(`Resend refused: ${err.status} ${err.message}`, 'error');
  }
}

function jobRow(subId, job, reload) {
  return [
    h('span', { class: 'mono' }, job.event?.type ?? '—'),
    h('span', { class: 'mono small' }, job.event?.id ?? job.id),
    badge(job.state), attemptsList(job), when(job.created_at),
    h('button', { type: 'button', class: 'resend', onclick: () => resend(subId, job, reload) }, 'Resend'),
  ];
}

/** The health chart, latency line and log table; filters and Reload re-read the log (and ON_RELOAD). */
export function deliveriesSection(subId, chartBox, onReload = async () => {}) {
  const box = h('div', { id: 'delivery-log' });
  const state = h('select', { name: 'state', 'aria-label': 'Job state' },
    ['', 'pending', 'retrying', 'waiting', 'delivered', 'dead_lettered', 'disabled'].map((v) => h('option', { value: v }, v || 'any state')));
  const reload = async () => {
    replace(box, loading('Loading the delivery log…'));
    await onReload();
    try {
      const { data } = await get(`/v1/subscriptions/${encodeURIComponent(subId)}/deliveries`, { limit: LOG_SIZE, state: state.value });
      const jobs = data.deliveries || [];
      replace(chartBox, stackedBars('Delivery attempts per hour', hourlyBuckets(jobs),
        [{ key: 'ok', name: 'delivered', tone: 'ok' }, { key: 'failed', name: 'failed', tone: 'bad' }]), latencyFacts(jobs), lastError(jobs));
      replace(box, jobs.length
        ? table('Delivery log (newest first)', ['Event type', 'Event id', 'State', 'Attempts', 'Created', ''], jobs.map((job) => jobRow(subId, job, reload)))
        : emptyState('No delivery yet for this subscription.'));
    } catch (err) {
      replace(box, errorBlock(err, reload));
    }
  };
  state.addEventListener('change', reload);
  const section = h('section', { 'aria-labelledby': 'log-title' },
    h('h2', { id: 'log-title' }, 'Delivery log'),
    h('p', { class: 'filters' }, state, ' ', h('button', { type: 'button', id: 'reload-log', onclick: reload }, 'Reload')),
    box);
  return { section, reload };
}
