// Seed 003 topics of the caller's domain (its tenant): open a topic by name, and the Main Topics whose
// history window is stored (GET /api/{domain}/event/topics).
import { h, replace, table, emptyState, when } from '../dom.js';
import { get } from '../api.js';
import { claims } from '../token.js';

/** The broker's domain is the token's tenant (the API refuses any other: 403 domain_mismatch). */
export const domain = () => claims().tenant_id || '';
export const eventBase = () => `/api/${encodeURIComponent(domain())}/event`;
export const topicHref = (topic) => `#/topics/${encodeURIComponent(topic)}`;

const windowText = (c) => `${c.max_events ?? 'any number of'} events, ${c.ttl_seconds ? `${c.ttl_seconds} s` : 'kept indefinitely'}`;

function openForm() {
  const input = h('input', { id: 'topic-name', name: 'topic', required: true, spellcheck: 'false', placeholder: 'orders or orders:1042' });
  const form = h('form', { class: 'filters', id: 'topic-open' },
    h('label', { for: 'topic-name' }, 'Topic'), input, h('button', { type: 'submit' }, 'Open'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    window.location.hash = topicHref(input.value.trim());
  });
  return form;
}

const count = (item) => ` ${item.events} event${item.events === 1 ? '' : 's'}, newest ${new Date(item.latest_ts).toISOString().slice(0, 19).replace('T', ' ')}`;

/** Append a page of the tree: a Main Topic's sub-topics nest under it (they follow it in byte order). */
function growTree(tree, items) {
  for (const item of items) {
    const entry = h('li', { dataset: { topic: item.topic } }, h('a', { href: topicHref(item.topic) }, item.topic), count(item));
    let parent = tree.querySelector(`li[data-main="${CSS.escape(item.main)}"] > ul`);
    if (!parent) {
      const holder = h('li', { dataset: { main: item.main } }, item.topic === item.main ? [entry.firstChild, entry.lastChild] : h('a', { href: topicHref(item.main) }, item.main), h('ul', {}));
      tree.append(holder);
      if (item.topic === item.main) continue;
      parent = holder.querySelector('ul');
    }
    parent.append(entry);
  }
}

function treeSection(first) {
  const tree = h('ul', { id: 'topic-tree' });
  const more = h('button', { type: 'button', id: 'more-topics' }, 'More topics');
  let next = first.next;
  growTree(tree, first.data || []);
  more.hidden = !next;
  more.addEventListener('click', async () => {
    const { data } = await get(`${eventBase()}/tree`, { after: next });
    growTree(tree, data.data || []);
    next = data.next;
    more.hidden = !next;
  });
  return h('section', { 'aria-labelledby': 'tree-title' }, h('h2', { id: 'tree-title' }, 'Topic tree'),
    tree.children.length ? tree : emptyState('No topic of this domain holds events yet.'), more);
}

export async function topicsPage(main, { current }) {
  const [{ data }, { data: firstTree }] = await Promise.all([get(`${eventBase()}/topics`), get(`${eventBase()}/tree`)]);
  if (!current()) return;
  const stored = data.data || [];
  replace(main,
    h('h1', {}, 'Topics'),
    h('p', { class: 'hint' }, `The event broker of domain ${domain()}: a topic's history covers its sub-topics (orders covers orders:1042).`),
    openForm(),
    treeSection(firstTree),
    h('h2', {}, 'Main Topics with a stored history window'),
    stored.length
      ? table('Stored windows', ['Topic', 'Window', 'Updated'], stored.map((c) => [
        h('a', { href: topicHref(c.topic) }, c.topic), windowText(c), when(c.updated_at)]))
      : emptyState('No Main Topic has a stored window: every topic uses the default.'));
}

export { windowText };
