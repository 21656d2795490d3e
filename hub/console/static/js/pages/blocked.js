// An ordered subscription's blocked keys (N77): each key parked by a dead-lettered head, what waits behind
// it, and Retry / Skip (POST …/blocked-keys/resume, a fresh X-Idempotency per press). Skip asks first in the
// page: the head's event is then never delivered in order.
import { h, replace, table, when, emptyState, loading } from '../dom.js';
import { api, get, idempotencyKey } from '../api.js';
import { errorBlock } from '../errors.js';
import { notify } from '../notice.js';

const PAGE_SIZE = 50;
const path = (subId, tail = '') => `/v1/subscriptions/${encodeURIComponent(subId)}/blocked-keys${tail}`;

function lastError(head) {
  const e = head.last_error;
  if (!e) return '—';
  return [when(e.attempted_at), ` ${e.error_class || e.outcome}`, e.status_code ? ` (HTTP ${e.status_code})` : '',
    e.detail ? ` — ${e.detail}` : ''];
}

async function resume(subId, key, action, reload, onChange) {
  try {
    const { data } = await api('POST', path(subId, '/resume'), { body: { key, action }, headers: idempotencyKey() });
    notify(action === 'retry'
      ? `Key ${key}: its head is retried as job ${data.resumed.job_id}.`
      : `Key ${key}: job ${data.resumed.job_id} skipped; the key's next event is sent.`);
  } catch (err) {
    notify(`Resume refused: ${err.status} ${err.message}`, 'error');
  }
  await reload();
  await onChange();
}

function actions(subId, item, reload, onChange) {
  const out = h('span', { class: 'action-out' });
  const retry = h('button', { type: 'button', class: 'retry-key', onclick: () => resume(subId, item.key, 'retry', reload, onChange) }, 'Retry');
  const skip = h('button', { type: 'button', class: 'skip-key' }, 'Skip');
  skip.addEventListener('click', () => {
    const yes = h('button', { type: 'button', class: 'danger skip-key-confirm', onclick: () => resume(subId, item.key, 'skip', reload, onChange) }, 'Confirm skip');
    const no = h('button', { type: 'button', onclick: () => replace(out) }, 'Cancel');
    replace(out, ' Leave the head dead-lettered and send the next event? ', yes, ' ', no);
    yes.focus();
  });
  return h('span', {}, retry, ' ', skip, out);
}

function keyRow(subId, item, reload, onChange) {
  const event = item.head.event;
  return [
    h('span', { class: 'mono' }, item.key),
    event ? [h('span', { class: 'mono' }, event.type), h('br'), h('span', { class: 'mono small' }, `#${event.seq} ${event.id}`)] : 'removed by retention',
    lastError(item.head), String(item.waiting), when(item.blocked_at), actions(subId, item, reload, onChange),
  ];
}

/** The subscription page's section; ON_CHANGE runs after a resume (the delivery log re-reads). */
export function blockedKeysSection(subId, onChange = async () => {}) {
  const box = h('div', { id: 'blocked-keys' });
  const reload = async () => {
    replace(box, loading('Loading the blocked keys…'));
    try {
      const { data } = await get(path(subId), { limit: PAGE_SIZE });
      const keys = data.blocked_keys || [];
      replace(box, keys.length
        ? [table('Blocked keys (oldest block first)', ['Key', 'Head event', 'Last error', 'Waiting', 'Blocked since', ''],
          keys.map((item) => keyRow(subId, item, reload, onChange))),
        data.next_cursor ? h('p', { class: 'hint' }, `Showing the ${PAGE_SIZE} oldest; resume them to see more.`) : null]
        : emptyState('No blocked key: every ordered key is delivering.'));
    } catch (err) {
      replace(box, errorBlock(err, reload, 'h3'));
    }
  };
  const section = h('section', { 'aria-labelledby': 'blocked-title' },
    h('h2', { id: 'blocked-title' }, 'Blocked keys'),
    h('p', { class: 'hint' }, 'An ordered key whose event dead-lettered under "block" holds its later events until you retry or skip its head.'),
    h('p', { class: 'filters' }, h('button', { type: 'button', id: 'reload-blocked', onclick: reload }, 'Reload')),
    box);
  return { section, reload };
}
