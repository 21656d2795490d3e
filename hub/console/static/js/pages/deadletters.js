// Seed 000 dead-letter triage for the operator: browse the head of the dead-letter queue (reason, origin
// queue, delivery count, time), choose several, then REPLAY (confirmed first), DISCARD or LEAVE them; each
// row shows its outcome exactly as the triage reports it (ORIGIN_QUEUE_DELETED, REPLAY_FAILED, …).
import { h, replace, table, emptyState, when } from '../dom.js';
import { api, get } from '../api.js';
import { errorBlock } from '../errors.js';

const PATH = '/admin/consumer/dead-letters';
const PAGE_SIZE = 100;

function eventText(item) {
  const resource = item.resource_id ? ` ${item.resource_id}` : '';
  return [h('span', {}, `${item.event.event_type}${resource}`),
    h('details', {}, h('summary', {}, 'message'), h('pre', {}, JSON.stringify(item.event.message, null, 1)))];
}

function rows(items, outcomeCells) {
  return items.map((item) => {
    const cell = h('span', { class: 'outcome', dataset: { id: item.id } }, '—');
    outcomeCells.set(item.id, cell);
    return [
      h('input', { type: 'checkbox', name: 'pick', value: item.id, 'aria-label': `Choose ${item.id}` }),
      item.reason, h('span', { class: 'mono' }, item.origin_queue), String(item.delivery_count),
      when(item.dead_lettered_at), eventText(item), cell];
  });
}

function showOutcomes(outcomes, cells, summary) {
  for (const o of outcomes) {
    const cell = cells.get(o.id);
    if (cell) replace(cell, h('strong', {}, o.outcome), o.detail ? h('span', { class: 'detail' }, ` ${o.detail}`) : null);
  }
  const counts = {};
  for (const o of outcomes) counts[o.outcome] = (counts[o.outcome] || 0) + 1;
  replace(summary, Object.entries(counts).map(([k, n]) => `${k} ${n}`).join(', '));
}

function actionBar(form, cells) {
  const out = h('div', { class: 'action-out', 'aria-live': 'polite', id: 'triage-result' });
  const summary = h('p', { id: 'triage-summary' });
  const run = async (action) => {
    const ids = [...form.querySelectorAll('input[name=pick]:checked')].map((box) => box.value);
    if (!ids.length) { replace(out, h('p', { class: 'warn' }, 'Choose at least one event first.')); return; }
    replace(out, h('span', { class: 'loading' }, 'Working…'));
    try {
      const { data } = await api('POST', `${PATH}/actions`, { body: { actions: ids.map((id) => ({ id, action })) } });
      replace(out);
      showOutcomes(data.outcomes, cells, summary);
    } catch (err) { replace(out, errorBlock(err, null, 'h3')); }
  };
  const replay = h('button', { type: 'button', id: 'triage-replay' }, 'Replay…');
  replay.addEventListener('click', () => {
    const n = form.querySelectorAll('input[name=pick]:checked').length;
    const yes = h('button', { type: 'button', id: 'triage-replay-confirm', class: 'danger', onclick: () => run('REPLAY') }, 'Replay');
    const no = h('button', { type: 'button', onclick: () => { replace(out); replay.focus(); } }, 'Cancel');
    replace(out, h('p', { class: 'confirm' }, `Replay ${n} event${n === 1 ? '' : 's'} to their origin queues?`, ' ', yes, ' ', no));
    yes.focus();
  });
  return h('div', { class: 'action' }, replay, ' ',
    h('button', { type: 'button', id: 'triage-discard', class: 'danger', onclick: () => run('DISCARD') }, 'Discard'), ' ',
    h('button', { type: 'button', id: 'triage-leave', onclick: () => run('LEAVE') }, 'Leave'), out, summary);
}

export async function deadLettersPage(main, { current, rerender }) {
  const { data } = await get(PATH, { limit: PAGE_SIZE });
  if (!current()) return;
  const items = data.dead_letters || [];
  const cells = new Map();
  const form = h('form', { id: 'triage-form' });
  form.addEventListener('submit', (event) => event.preventDefault());
  if (items.length) {
    form.append(table(`The first ${items.length} dead-lettered events`,
      ['Choose', 'Reason', 'Origin queue', 'Deliveries', 'Dead-lettered', 'Event', 'Outcome'], rows(items, cells)),
    actionBar(form, cells));
  }
  replace(main,
    h('h1', {}, 'Dead-letter triage'),
    h('p', { class: 'hint' }, `Seed 000's dead-letter queue, oldest first, ${PAGE_SIZE} at a time: settle these (replay or discard) and Reload to see the next ones. Left events stay in the queue.`),
    h('p', {}, h('button', { type: 'button', id: 'triage-reload', onclick: rerender }, 'Reload')),
    items.length ? form : emptyState('The dead-letter queue is empty.'));
}
