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

export async function topicsPage(main, { current }) {
  const { data } = await get(`${eventBase()}/topics`);
  if (!current()) return;
  const stored = data.data || [];
  replace(main,
    h('h1', {}, 'Topics'),
    h('p', { class: 'hint' }, `The event broker of domain ${domain()}: a topic's history covers its sub-topics (orders covers orders:1042).`),
    openForm(),
    h('h2', {}, 'Main Topics with a stored history window'),
    stored.length
      ? table('Stored windows', ['Topic', 'Window', 'Updated'], stored.map((c) => [
        h('a', { href: topicHref(c.topic) }, c.topic), windowText(c), when(c.updated_at)]))
      : emptyState('No Main Topic has a stored window: every topic uses the default.'));
}

export { windowText };
