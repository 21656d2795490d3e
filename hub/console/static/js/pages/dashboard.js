// The dashboard: period buckets as charts, the census, and the needs-attention list.
import { h, replace, table, facts, badge, emptyState, when } from '../dom.js';
import { get } from '../api.js';
import { stackedBars } from '../chart.js';

const FAILED = ['failed', 'dead_lettered', 'disabled', 'poison'];

function bucketsOf(series, pick) {
  return series.map((b) => ({ label: String(b.bucket_start).slice(0, 16).replace('T', ' '), values: pick(b) }));
}

function charts(period) {
  const series = period.time_series || [];
  const attempts = (b) => {
    const counts = b.push?.delivery_attempts || {};
    return { ok: (counts.delivered || 0) + (counts.available || 0), bad: FAILED.reduce((n, k) => n + (counts[k] || 0), 0) };
  };
  return h('div', { class: 'charts' },
    stackedBars('Events received', bucketsOf(series, (b) => ({ events: b.events_received })), [{ key: 'events', name: 'events', tone: 'info' }]),
    stackedBars('Delivery attempts', bucketsOf(series, attempts), [{ key: 'ok', name: 'delivered', tone: 'ok' }, { key: 'bad', name: 'failed', tone: 'bad' }]));
}

function census(state) {
  const c = state.subscriptions;
  return facts([
    ['Subscriptions', c.total], ['Enabled / disabled', `${c.by_enabled.enabled} / ${c.by_enabled.disabled}`],
    ['By state', Object.entries(c.by_verification_state).map(([k, n]) => `${k} ${n}`).join(', ')],
    ['By kind', Object.entries(c.by_sink_kind).map(([k, n]) => `${k} ${n}`).join(', ')],
    ['Pending jobs', state.push.pending_jobs],
    ['Oldest pending job', state.push.oldest_pending_job_age_seconds == null ? '—' : `${state.push.oldest_pending_job_age_seconds} s`],
  ]);
}

function attention(page) {
  const items = page.items || [];
  if (!items.length) return emptyState('Nothing needs attention in this period.');
  return table('Needs attention', ['Subscription', 'Kind', 'State', 'Reasons', 'Failed / attempts', 'Last failure'],
    items.map((item) => [
      h('a', { href: `#/subscriptions/${encodeURIComponent(item.subscription_id)}` }, item.subscription_id),
      item.sink_kind, badge(item.verification_state), item.attention_reasons.join(', '),
      `${item.period_failed_attempts} / ${item.period_delivery_attempts}`, when(item.last_failure_at)]));
}

export async function dashboardPage(main, { current }) {
  const hours = new URLSearchParams(window.location.hash.split('?')[1] || '').get('hours') || '24';
  const [{ data: snap }, { data: needs }] = await Promise.all([
    get('/v1/dashboard', { window_hours: hours }), get('/v1/dashboard/subscriptions', { window_hours: hours, limit: 50 })]);
  if (!current()) return;
  const select = h('select', { id: 'window-hours', 'aria-label': 'Window' },
    ['1', '6', '24', '72', '168'].map((n) => h('option', { value: n, selected: n === hours }, `last ${n} h`)));
  select.addEventListener('change', () => { window.location.hash = `#/dashboard?hours=${select.value}`; });
  replace(main, h('h1', {}, 'Dashboard'),
    h('p', {}, select, ' ', `${snap.selected_period.events_received} events received between `, when(snap.window_start), ' and ', when(snap.window_end)),
    charts(snap.selected_period),
    h('h2', {}, 'Census'), census(snap.current_state),
    h('h2', {}, 'Needs attention'), attention(needs));
}
