// One durable queue: its state (GET /v1/durable-queues/{id}), its filters replaced with the seed's PATCH,
// and its deletion (the seed's DELETE, with its messages) after a confirmation in the page.
import { h, replace, facts, when } from '../dom.js';
import { api, get } from '../api.js';
import { errorBlock } from '../errors.js';
import { notify, notifyNext } from '../notice.js';
import { SEED_QUEUES, groupsField, groupsSummary, readGroups } from './queue-forms.js';

function stateFacts(queue) {
  const count = (value) => (value === null ? 'gone from the broker' : value);
  return facts([
    ['Queue id', h('span', { class: 'mono' }, queue.queue_id)], ['Filters', groupsSummary(queue.filter_groups)],
    ['Depth (ready)', count(queue.depth)], ['Unacknowledged', queue.unacknowledged], ['Consumers', count(queue.consumers)],
    ['Last consumer', when(queue.last_consumer_at)],
    ['Idle expiry', queue.idle_expires_at ? when(queue.idle_expires_at) : 'not while a consumer is attached'],
    ['Created', when(queue.created_at)],
  ]);
}

function updateForm(queue, rerender) {
  const out = h('div', { id: 'queue-update-result', 'aria-live': 'polite' });
  const form = h('form', { class: 'stack', id: 'queue-update-form' },
    groupsField('queue-new-groups', JSON.stringify(queue.filter_groups, null, 1)),
    h('button', { type: 'submit' }, 'Replace the filters'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    let groups;
    try { groups = readGroups(form.querySelector('#queue-new-groups').value); } catch (err) {
      replace(out, h('p', { class: 'error', role: 'alert' }, err.message));
      return;
    }
    try {
      await api('PATCH', SEED_QUEUES, { body: { queue_id: queue.queue_id, current_filter_groups: queue.filter_groups, new_filter_groups: groups } });
      await rerender();
      notify('Filters replaced.');
    } catch (err) {
      replace(out, errorBlock(err, null, 'h3'));
    }
  });
  return h('section', { 'aria-labelledby': 'queue-update-title' },
    h('h2', { id: 'queue-update-title' }, 'Filters'), form, out);
}

function deleteSection(queue) {
  const out = h('div', { class: 'action-out', 'aria-live': 'polite' });
  const ask = h('button', { type: 'button', id: 'queue-delete', class: 'danger' }, 'Delete the queue');
  ask.addEventListener('click', () => {
    const yes = h('button', { type: 'button', id: 'queue-delete-confirm', class: 'danger' }, 'Delete');
    const no = h('button', { type: 'button', onclick: () => { replace(out); ask.focus(); } }, 'Cancel');
    yes.addEventListener('click', async () => {
      try {
        await api('DELETE', SEED_QUEUES, { params: { queue_id: queue.queue_id } });
        notifyNext(`Queue ${queue.queue_id} deleted.`);
        window.location.hash = '#/queues';
      } catch (err) { replace(out, errorBlock(err, null, 'h3')); }
    });
    const depth = queue.depth ? ` and its ${queue.depth} waiting message${queue.depth === 1 ? '' : 's'}` : '';
    replace(out, h('p', { class: 'confirm' }, `Delete ${queue.queue_id}${depth}? This cannot be undone.`, ' ', yes, ' ', no));
    yes.focus();
  });
  return h('section', { 'aria-labelledby': 'queue-delete-title' },
    h('h2', { id: 'queue-delete-title' }, 'Delete'), ask, out);
}

export async function queuePage(main, { params: [queueId], current, rerender }) {
  const { data } = await get(`/v1/durable-queues/${encodeURIComponent(queueId)}`);
  if (!current()) return;
  const queue = data.queue;
  replace(main,
    h('p', {}, h('a', { href: '#/queues' }, '← Durable queues')),
    h('h1', {}, queue.queue_id),
    stateFacts(queue),
    h('p', {}, h('button', { type: 'button', id: 'queue-reload', onclick: rerender }, 'Reload')),
    updateForm(queue, rerender),
    deleteSection(queue));
}
