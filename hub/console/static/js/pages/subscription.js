// One subscription: its facts, health (chart, p50/p99, last error), delivery options, blocked keys (ordered
// delivery), delivery log and actions.
import { h, replace, facts, badge, when } from '../dom.js';
import { get } from '../api.js';
import { errorBlock } from '../errors.js';
import { deliveriesSection } from './deliveries.js';
import { actionsSection } from './actions.js';
import { optionsSection } from './options.js';
import { blockedKeysSection } from './blocked.js';
import { queueKinds } from '../kinds.js';

function summary(sub) {
  return facts([
    ['Id', h('span', { class: 'mono' }, sub.id)], ['Kind', sub.sink_kind], ['Endpoint', sub.endpoint_display],
    ['State', badge(sub.verification_state)], ['Enabled', sub.enabled ? 'yes' : 'no'],
    ['Event types', (sub.event_types || []).join(', ') || '—'], ['Schema major', sub.schema_major],
    ['Secret rotated', when(sub.secret_rotated_at)], ['Created', when(sub.created_at)],
  ]);
}

function outcomesText(counts) {
  const pairs = Object.entries(counts || {}).filter(([, n]) => n);
  return pairs.length ? pairs.map(([k, n]) => `${k} ${n}`).join(', ') : 'none';
}

function healthFacts(health) {
  const rate = health.success_rate == null ? '—' : `${(health.success_rate * 100).toFixed(1)} %`;
  return h('div', { id: 'health' },
    h('p', {}, 'Status ', badge(health.status)),
    facts([
      ['Success rate', rate], ['Recent outcomes', outcomesText(health.recent_outcomes)],
      ['Outcomes since window start', outcomesText(health.delivery_outcomes)],
      ['Last success', when(health.last_success_at)], ['Last failure', when(health.last_failure_at)],
      ['Disabled reason', health.disabled_reason || '—'],
      ['Dead-lettered', health.dead_lettered], ['Consumer lag', `${health.consumer_lag_ms ?? 0} ms`],
    ]));
}

async function fillHealth(box, subId) {
  try {
    const { data } = await get(`/v1/subscriptions/${encodeURIComponent(subId)}/health`);
    replace(box, healthFacts(data));
  } catch (err) {
    replace(box, errorBlock(err));
  }
}

export async function subscriptionPage(main, { params: [subId], current, rerender }) {
  const { data } = await get(`/v1/subscriptions/${encodeURIComponent(subId)}`);
  if (!current()) return;
  const sub = data.subscription;
  const chartBox = h('div', { id: 'health-chart' });
  const health = h('div', {});
  const log = deliveriesSection(sub.id, chartBox, () => fillHealth(health, sub.id));
  const blocked = blockedKeysSection(sub.id, log.reload);
  await fillHealth(health, sub.id);
  if (!current()) return;
  replace(main,
    h('p', {}, h('a', { href: '#/subscriptions' }, '← Subscriptions')),
    h('h1', {}, sub.name || sub.id),
    summary(sub),
    (await queueKinds())[sub.sink_kind] ? h('p', {}, h('a', { href: `#/subscriptions/${encodeURIComponent(sub.id)}/connect`, class: 'btn', id: 'connect' }, 'Connect the destination')) : null,
    sub.sink_kind === 'pull' ? h('p', {}, h('a', { href: `#/subscriptions/${encodeURIComponent(sub.id)}/pull`, class: 'btn' }, 'Pull cursor and lag')) : null,
    h('section', { 'aria-labelledby': 'health-title' }, h('h2', { id: 'health-title' }, 'Health'), health, chartBox),
    optionsSection(sub.id),
    sub.sink_kind !== 'pull' ? blocked.section : null,
    sub.sink_kind !== 'pull' ? log.section : null,
    actionsSection(sub, rerender));
  // The log's first read re-reads the health too; a pull subscription has no log to wait for.
  if (sub.sink_kind !== 'pull') await Promise.all([blocked.reload(), log.reload()]);
}
