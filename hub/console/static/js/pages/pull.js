// A pull subscription's position. Reading GET /v1/events moves the durable cursor (N25) and the
// contract has no peek, so the console never reads events: it shows the lag the hub reports.
import { h, replace, facts, badge, when } from '../dom.js';
import { get } from '../api.js';

export async function pullPage(main, { params: [subId], current }) {
  const id = encodeURIComponent(subId);
  const [{ data: subData }, { data: health }] = await Promise.all([get(`/v1/subscriptions/${id}`), get(`/v1/subscriptions/${id}/health`)]);
  if (!current()) return;
  const sub = subData.subscription;
  replace(main,
    h('p', {}, h('a', { href: `#/subscriptions/${id}` }, '← ', sub.name || sub.id)),
    h('h1', {}, 'Pull cursor'),
    h('p', { class: 'hint' }, 'The hub offers no peek: every read of GET /v1/events advances the cursor, so the console only shows where the reader stands.'),
    facts([
      ['Kind', sub.sink_kind], ['Status', badge(health.status)], ['Enabled', health.enabled ? 'yes' : 'no'],
      ['Lag behind the newest event', `${health.consumer_lag_ms ?? 0} ms`],
      ['Events made available (window)', health.delivery_outcomes?.available ?? 0],
      ['Last read', when(health.last_success_at)], ['Health snapshot', when(health.snapshot_at)],
    ]));
}
