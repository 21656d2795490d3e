// Safe DOM building: every piece of text goes through textContent, never innerHTML, because
// event data, error details and subscription fields are untrusted.

/** Build an element: h('a', {href: '#/x', class: 'btn'}, 'text', childNode, ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Append children: nodes as they are, everything else as text. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace an element's content with the given children. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** A definition list from [label, value] pairs. */
export function facts(pairs) {
  return h('dl', { class: 'facts' },
    pairs.map(([label, value]) => [h('dt', {}, label), h('dd', {}, value ?? '—')]));
}

/** A table from column headings and rows (arrays of cell contents). Each cell carries its column's
 * heading (data-label): on a narrow screen the stylesheet shows every row as a card of labelled fields. */
export function table(caption, headings, rows) {
  return h('div', { class: 'table-wrap' },
    h('table', { class: 'cards' },
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, headings.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, rows.map((cells) => h('tr', {},
        cells.map((cell, index) => h('td', { 'data-label': headings[index] ?? '' }, cell)))))));
}

/** A badge whose class comes from a fixed list (the value is shown as text only). */
export function badge(value, known = ['Healthy', 'Degraded', 'Down', 'active', 'degraded',
  'pending_verification', 'delivered', 'failed', 'dead_lettered', 'disabled', 'pending', 'retrying', 'waiting',
  'healthy', 'down', 'enabled']) {
  const tone = known.includes(value) ? `badge-${value}` : 'badge-other';
  return h('span', { class: `badge ${tone}` }, value ?? 'unknown');
}

/** An ISO timestamp shown compactly, the full value in the title. */
export function when(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return h('time', { datetime: iso, title: iso }, date.toISOString().replace('T', ' ').slice(0, 19));
}

export function emptyState(text) {
  return h('p', { class: 'empty' }, text);
}

export function loading(text = 'Loading…') {
  return h('p', { class: 'loading', role: 'status' }, text);
}
