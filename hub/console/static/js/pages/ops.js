// Operator pages: dead-letter observations (filters, paging) and the readiness probes.
import { h, replace, table, badge, emptyState, when } from '../dom.js';
import { get, ApiError } from '../api.js';

const ERROR_CLASSES = ['', 'serialization', 'validation', 'auth', 'topic_not_found', 'broker_unavailable',
  'network_timeout', 'broker_overloaded', 'context_canceled', 'unknown'];

function dlqParams() {
  return new URLSearchParams(window.location.hash.split('?')[1] || '');
}

function dlqFilters(params) {
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter observations' },
    h('label', {}, 'Source topic ', h('input', { name: 'source_topic', value: params.get('source_topic') || '' })),
    h('label', {}, 'Error class ', h('select', { name: 'error_class' },
      ERROR_CLASSES.map((c) => h('option', { value: c, selected: c === (params.get('error_class') || '') }, c || 'any')))),
    h('button', { type: 'submit' }, 'Filter'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = new URLSearchParams([...new FormData(form)].filter(([, v]) => v));
    window.location.hash = `#/ops/dlq${chosen.toString() ? `?${chosen}` : ''}`;
  });
  return form;
}

export async function dlqPage(main, { current }) {
  const params = dlqParams();
  const { data } = await get('/admin/dlq', Object.fromEntries(params));
  if (!current()) return;
  const rows = data.observations || [];
  const next = new URLSearchParams(params);
  next.set('after', data.nextCursor || '');
  replace(main, h('h1', {}, 'Dead-letter observations'), dlqFilters(params),
    rows.length
      ? table('Observations', ['Observed', 'Source topic', 'Error class', 'Message', 'Retries', 'Producer', 'Tenant'],
        rows.map((o) => [when(o.observed_at), o.source_topic, o.error_class, o.error_message, o.retry_count, o.producer_id, o.tenant_id_raw]))
      : emptyState('No dead-letter observation matches.'),
    h('nav', { class: 'pager', 'aria-label': 'Pages' },
      params.get('after') ? h('button', { type: 'button', onclick: () => history.back() }, 'Previous page') : null,
      data.nextCursor ? h('a', { class: 'btn', href: `#/ops/dlq?${next}` }, 'Next page') : null));
}

export async function readinessPage(main, { current }) {
  let body;
  try {
    body = (await get('/readyz')).data;
  } catch (err) {
    // Not ready is a 503 whose body still lists the probes: show them rather than only the error.
    if (!(err instanceof ApiError) || !err.problem?.probes) throw err;
    body = err.problem;
  }
  if (!current()) return;
  replace(main, h('h1', {}, 'Readiness'), h('p', {}, 'Deployment ', badge(body.state)),
    table('Probes', ['Probe', 'State', 'Detail'], (body.probes || []).map((p) => [p.name, badge(p.state), p.detail])));
}
