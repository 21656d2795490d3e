// Purge a topic's subtree by type, since and until. The API answers the deleted count only after the
// fact, so the page counts first (history pages, newest first, until the `since` bound) and the
// confirmation states that count; the answer then says how many were deleted.
import { h, replace } from '../dom.js';
import { api, get } from '../api.js';
import { errorBlock } from '../errors.js';

const PAGE = 1000;
const MAX_PAGES = 20; // past 20,000 matching events the confirmation says "more than"

const ms = (local) => (local ? Date.parse(`${local}Z`) : undefined); // the inputs are UTC

/** How many retained events match: {count, more} (more: the count stopped at the cap). */
async function countMatching(path, { type, since, until }) {
  let count = 0, bound = until, seen = new Set();
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const { data } = await get(path, { type, until: bound, limit: PAGE });
    const events = (data.data || []).filter((e) => !seen.has(e.id));
    const matching = events.filter((e) => since === undefined || e.ts >= since);
    count += matching.length;
    if ((data.data || []).length < PAGE || matching.length < events.length || !events.length) return { count, more: false };
    const oldest = events[events.length - 1].ts;
    seen = new Set(events.filter((e) => e.ts === oldest).map((e) => e.id));
    bound = oldest + 1;
  }
  return { count, more: true };
}

function field(id, label, attrs) {
  return [h('label', { for: id }, label), h('input', { id, ...attrs })];
}

export function purgeSection(topic, path, reload) {
  const out = h('div', { class: 'action-out', 'aria-live': 'polite', id: 'purge-result' });
  const form = h('form', { class: 'filters', id: 'purge-form' },
    field('purge-type', 'Type', { spellcheck: 'false' }), field('purge-since', 'Since (UTC)', { type: 'datetime-local', step: 1 }),
    field('purge-until', 'Until (UTC)', { type: 'datetime-local', step: 1 }),
    h('button', { type: 'submit', class: 'danger', id: 'purge' }, 'Purge…'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const filters = { type: form.querySelector('#purge-type').value.trim() || undefined,
      since: ms(form.querySelector('#purge-since').value), until: ms(form.querySelector('#purge-until').value) };
    replace(out, h('span', { class: 'loading' }, 'Counting the matching events…'));
    try {
      const { count, more } = await countMatching(path, filters);
      const yes = h('button', { type: 'button', class: 'danger', id: 'purge-confirm' }, `Delete ${more ? 'them' : count}`);
      const no = h('button', { type: 'button', onclick: () => replace(out) }, 'Cancel');
      yes.addEventListener('click', async () => {
        try {
          const { data } = await api('DELETE', path, { params: filters });
          replace(out, h('p', { id: 'purged' }, `Deleted ${data.data.deleted} event${data.data.deleted === 1 ? '' : 's'}.`));
          await reload();
        } catch (err) { replace(out, errorBlock(err, null, 'h3')); }
      });
      replace(out, h('p', { class: 'confirm', id: 'purge-question' },
        `${more ? `More than ${count}` : count} event${count === 1 && !more ? '' : 's'} of ${topic} and its sub-topics match. Delete ${count === 1 && !more ? 'it' : 'them'}? This cannot be undone.`, ' ', yes, ' ', no));
      yes.focus();
    } catch (err) { replace(out, errorBlock(err, null, 'h3')); }
  });
  return h('section', { 'aria-labelledby': 'purge-title' }, h('h2', { id: 'purge-title' }, 'Purge'),
    h('p', { class: 'hint' }, 'Deletes retained events of this topic and its sub-topics; empty fields match everything.'), form, out);
}
