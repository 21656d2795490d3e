// The event catalog, searched in the page (the API returns it whole).
import { h, replace, table, emptyState, when } from '../dom.js';
import { get } from '../api.js';

function matches(event, words) {
  const text = [event.eventKey, event.eventType, event.source, event.resourceType, event.description].join(' ').toLowerCase();
  return words.every((word) => text.includes(word));
}

export async function catalogPage(main, { current }) {
  const { data } = await get('/v1/catalog');
  if (!current()) return;
  const events = data.events || [];
  const results = h('div', { id: 'catalog-results' });
  const search = h('input', { type: 'search', id: 'catalog-search', placeholder: 'event key, source, words…' });
  const show = () => {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    const found = events.filter((event) => matches(event, words));
    replace(results, found.length
      ? table(`${found.length} of ${events.length} events`, ['Event key', 'Source', 'Schema', 'Topic', 'Description'],
        found.map((e) => [h('span', { class: 'mono' }, e.eventKey), e.source, `${e.schemaVersion} (major ${e.schemaMajor})`, e.topic, e.description]))
      : emptyState(events.length ? 'No event matches the search.' : 'The catalog is empty.'));
  };
  search.addEventListener('input', show);
  show();
  replace(main, h('h1', {}, 'Catalog'),
    h('label', { for: 'catalog-search' }, 'Search '), search, results,
    (data.producers || []).length ? table('Producers', ['Target', 'Source', 'Fetched', 'Last refresh error'],
      data.producers.map((p) => [p.target, p.source, when(p.fetched_at), p.last_refresh_error_class || '—'])) : null);
}
