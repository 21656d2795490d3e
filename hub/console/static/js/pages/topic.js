// One seed 003 topic: its history newest first, paged with `until`; its purge (purge.js); the Main Topic's
// retention window; and the live view over the WebSocket (live.js).
import { h, replace, table, emptyState, facts, when } from '../dom.js';
import { api, get } from '../api.js';
import { errorBlock } from '../errors.js';
import { notify } from '../notice.js';
import { eventBase, windowText } from './topics.js';
import { purgeSection } from './purge.js';
import { liveSection } from './live.js';

const PAGE_SIZE = 50;
const dataPath = (topic) => `${eventBase()}/data/${encodeURIComponent(topic)}`;

const stamp = (ts) => when(new Date(ts).toISOString());

function eventRow(item) {
  return [h('span', { class: 'mono' }, item.id), item.topic, item.type, stamp(item.ts),
    h('details', {}, h('summary', {}, 'data'), h('pre', {}, JSON.stringify(item.data, null, 1)))];
}

/** A page older than the last: `until` is the oldest ts + 1, and the ids already shown are dropped,
 * so events sharing that millisecond are neither lost nor shown twice (the seed's paging rule). */
async function olderPage(topic, last) {
  const oldest = last[last.length - 1].ts;
  const seen = new Set(last.filter((e) => e.ts === oldest).map((e) => e.id));
  const { data } = await get(dataPath(topic), { limit: PAGE_SIZE, until: oldest + 1 });
  return (data.data || []).filter((e) => !seen.has(e.id));
}

function historySection(topic, initial) {
  const box = h('div', { id: 'history' });
  const pages = [];
  const show = (events) => {
    const older = events.length ? h('button', { type: 'button', id: 'older', onclick: () => load(() => olderPage(topic, events)) }, 'Older events') : null;
    const newer = pages.length > 1 ? h('button', { type: 'button', id: 'newer', onclick: () => { pages.pop(); show(pages[pages.length - 1]); } }, 'Newer events') : null;
    replace(box, events.length ? table(`History, newest first (page ${pages.length})`, ['Id', 'Topic', 'Type', 'Published', 'Data'], events.map(eventRow))
      : emptyState(pages.length > 1 ? 'No older events: this is the end of the history.' : 'No events retained on this topic.'),
    h('nav', { class: 'pager', 'aria-label': 'History pages' }, newer, events.length ? older : null));
  };
  const load = async (fetchPage) => {
    try {
      const events = await fetchPage();
      pages.push(events);
      show(events);
    } catch (err) { replace(box, errorBlock(err, null, 'h3')); }
  };
  const first = async () => (await get(dataPath(topic), { limit: PAGE_SIZE })).data.data || [];
  const reload = () => { pages.length = 0; return load(first); };
  pages.push(initial);
  show(initial);
  return { reload, section: h('section', { 'aria-labelledby': 'history-title' },
    h('h2', { id: 'history-title' }, 'History'), h('p', {}, h('button', { type: 'button', id: 'reload-history', onclick: () => reload() }, 'Reload')), box) };
}

function retentionSection(main) {
  const path = `${eventBase()}/topics/${encodeURIComponent(main)}`;
  const box = h('div', { id: 'retention-now' });
  const out = h('div', { 'aria-live': 'polite', id: 'retention-result' });
  const maxEvents = h('input', { id: 'retention-max', type: 'number', min: 1 });
  const ttl = h('input', { id: 'retention-ttl', type: 'number', min: 1 });
  const showWindow = (c) => replace(box, facts([['Window', windowText(c)], ['Default', c.default ? 'yes (nothing stored)' : 'no'], ['Updated', when(c.updated_at)]]));
  const read = async () => {
    try { const { data } = await get(path); showWindow(data.data); maxEvents.value = data.data.max_events ?? ''; ttl.value = data.data.ttl_seconds ?? ''; } catch (err) { replace(box, errorBlock(err, null, 'h3')); }
  };
  const form = h('form', { class: 'filters', id: 'retention-form' },
    h('label', { for: 'retention-max' }, 'Max events'), maxEvents, h('label', { for: 'retention-ttl' }, 'TTL (s)'), ttl,
    h('button', { type: 'submit' }, 'Save the window'),
    h('button', { type: 'button', id: 'retention-default', onclick: async () => {
      try { await api('DELETE', path); await read(); notify('The default window applies again.'); } catch (err) { replace(out, errorBlock(err, null, 'h3')); }
    } }, 'Use the default'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { max_events: maxEvents.value ? Number(maxEvents.value) : null, ttl_seconds: ttl.value ? Number(ttl.value) : null };
    try { const { data } = await api('PUT', path, { body }); showWindow(data.data); replace(out); notify('Window saved.'); } catch (err) { replace(out, errorBlock(err, null, 'h3')); }
  });
  read();
  return h('section', { 'aria-labelledby': 'retention-title' },
    h('h2', { id: 'retention-title' }, `Retention of the Main Topic ${main}`), box, form, out);
}

export async function topicPage(main, { params: [topic], current }) {
  const { data } = await get(dataPath(topic), { limit: PAGE_SIZE }); // a refusal is the page's error
  if (!current()) return;
  const history = historySection(topic, data.data || []);
  const mainTopic = topic.split(':')[0];
  replace(main,
    h('p', {}, h('a', { href: '#/topics' }, '← Topics')),
    h('h1', {}, `Topic ${topic}`),
    history.section,
    purgeSection(topic, dataPath(topic), history.reload),
    retentionSection(mainTopic),
    liveSection(topic));
}
