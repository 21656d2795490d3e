// What the queue pages share: the seed 000 routes, the filter-groups editor (JSON) and its summary.
import { h } from '../dom.js';

export const SEED_QUEUES = '/api/v1beta/queues/durable';
export const queueHref = (id) => `#/queues/${encodeURIComponent(id)}`;
export const EXAMPLE_GROUPS = '[{"event_type": "orders.created", "filters": [{"filter_type": "starts_with_lazy", "resource_id": "/orders/"}]}]';

/** The groups as one line per group: "type: filter resource, …" ("every event" when none). */
export function groupsSummary(groups) {
  if (!groups || !groups.length) return 'every event';
  return groups.map((g) => {
    const filters = (g.filters || []).map((f) => `${f.filter_type} ${f.resource_id}`).join(', ');
    return `${g.event_type || 'any type'}${filters ? `: ${filters}` : ''}`;
  }).join('; ');
}

/** A textarea for filter groups (JSON), with its label and hint. */
export function groupsField(id, value) {
  return h('div', { class: 'field' },
    h('label', { for: id }, 'Filter groups (JSON)'),
    h('textarea', { id, name: 'filter_groups', rows: 4, spellcheck: 'false' }, value),
    h('p', { class: 'hint' }, `Empty for every event. For example ${EXAMPLE_GROUPS}`));
}

/** The textarea's groups; throws a readable Error when it is not a JSON array. */
export function readGroups(text) {
  if (!text.trim()) return [];
  let value;
  try { value = JSON.parse(text); } catch { throw new Error('The filter groups are not valid JSON.'); }
  if (!Array.isArray(value)) throw new Error('The filter groups must be a JSON array.');
  return value;
}
