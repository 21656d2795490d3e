// Seed 000 durable queues: the tenant's list (GET /v1/durable-queues, paged by the API) and the create
// form (the seed's POST /api/v1beta/queues/durable, whose validation messages are shown as they come).
import { h, replace, table, emptyState, when } from '../dom.js';
import { api, get } from '../api.js';
import { errorBlock } from '../errors.js';
import { notifyNext } from '../notice.js';
import { SEED_QUEUES, groupsField, groupsSummary, queueHref, readGroups } from './queue-forms.js';

const PAGE_SIZE = 20;

function hashParams() {
  const at = window.location.hash.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : window.location.hash.slice(at + 1));
}

const count = (value) => (value === null || value === undefined ? 'gone from the broker' : String(value));

function row(queue) {
  return [
    h('a', { href: queueHref(queue.queue_id), class: 'mono' }, queue.queue_id),
    groupsSummary(queue.filter_groups), count(queue.depth), String(queue.unacknowledged), count(queue.consumers),
    when(queue.last_consumer_at), queue.idle_expires_at ? when(queue.idle_expires_at) : 'not while attached',
  ];
}

function createForm() {
  const out = h('div', { id: 'queue-create-result', 'aria-live': 'polite' });
  const form = h('form', { class: 'stack', id: 'queue-create-form' },
    h('div', { class: 'field' }, h('label', { for: 'queue-id' }, 'Queue id (optional)'),
      h('input', { id: 'queue-id', name: 'queue_id', maxlength: 200, spellcheck: 'false', autocomplete: 'off' }),
      h('p', { class: 'hint' }, 'Letters, digits, ".", "_" and "-"; empty to let the hub name it.')),
    groupsField('queue-groups', ''),
    h('button', { type: 'submit' }, 'Create the queue'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    let groups;
    try { groups = readGroups(form.querySelector('#queue-groups').value); } catch (err) {
      replace(out, h('p', { class: 'error', role: 'alert' }, err.message));
      return;
    }
    try {
      const body = { queue_id: form.querySelector('#queue-id').value.trim(), filter_groups: groups };
      const { data } = await api('POST', SEED_QUEUES, { body });
      notifyNext(data.created ? `Queue ${data.queue_id} created.` : `Queue ${data.queue_id} already exists: unchanged.`);
      window.location.hash = queueHref(data.queue_id);
    } catch (err) {
      replace(out, errorBlock(err, null, 'h3'));
    }
  });
  return h('section', { 'aria-labelledby': 'queue-create-title' },
    h('h2', { id: 'queue-create-title' }, 'New durable queue'), form, out);
}

export async function queuesPage(main, { current }) {
  const params = hashParams();
  const { data } = await get('/v1/durable-queues', { limit: PAGE_SIZE, after: params.get('after') });
  if (!current()) return;
  const queues = data.queues || [];
  replace(main,
    h('h1', {}, 'Durable queues'),
    h('p', { class: 'hint' }, 'Seed 000 queues of your tenant: consumers read them over SSE or gRPC.'),
    queues.length
      ? table('Durable queues', ['Queue', 'Filters', 'Depth', 'Unacked', 'Consumers', 'Last consumer', 'Idle expiry'], queues.map(row))
      : emptyState(params.get('after') ? 'No more queues.' : 'No durable queues yet. Create one below.'),
    h('nav', { class: 'pager', 'aria-label': 'Pages' },
      params.get('after') ? h('button', { type: 'button', onclick: () => history.back() }, 'Previous page') : null,
      data.next_cursor ? h('a', { class: 'btn', id: 'next-page', href: `#/queues?after=${encodeURIComponent(data.next_cursor)}` }, 'Next page') : null),
    createForm());
}
