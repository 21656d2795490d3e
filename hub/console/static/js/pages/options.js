// A subscription's delivery options (payload filter, static headers, rate limit, ordering): their own resource,
// GET/PUT /v1/subscriptions/{id}/delivery-options, never fields of the subscription itself.
import { h, replace, facts } from '../dom.js';
import { api, get, idempotencyKey } from '../api.js';
import { errorBlock } from '../errors.js';

const path = (subId) => `/v1/subscriptions/${encodeURIComponent(subId)}/delivery-options`;

function area(name, label, hint) {
  const id = `create-${name}`;
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('textarea', { id, name, rows: 3, spellcheck: 'false' }),
    h('p', { class: 'hint' }, hint));
}

/** The create form's optional fields; they are sent with a PUT once the subscription exists. */
export function optionFields() {
  const rate = `create-rate_limit_per_second`;
  return h('fieldset', { class: 'stack', id: 'create-options' },
    h('legend', {}, 'Delivery options (optional)'),
    area('filter', 'Payload filter (JSON)', 'Only events matching it are delivered, e.g. {"data.total": {"$gte": 100}}.'),
    area('headers', 'Static headers', 'One "Name: value" per line, sent with every request.'),
    h('label', {}, h('input', { type: 'checkbox', name: 'headers_secret', id: 'create-headers_secret' }),
      ' Store the header values sealed (read back without their value)'),
    h('div', { class: 'field' }, h('label', { for: rate }, 'Rate limit (deliveries per second)'),
      h('input', { id: rate, name: 'rate_limit_per_second', type: 'number', min: 1, max: 10000 })));
}

function parseHeaders(text, secret) {
  return text.split('\n').map((line) => line.trim()).filter(Boolean).map((line) => {
    const colon = line.indexOf(':');
    if (colon < 1) throw new Error(`"${line}" is not "Name: value"`);
    return { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim(), secret };
  });
}

/** The options the form asks for, or null when it asks for none; throws on unreadable input. */
export function readOptions(values) {
  const options = {};
  const filter = values.get('filter').trim();
  if (filter) {
    try {
      options.filter = JSON.parse(filter);
    } catch {
      throw new Error('The payload filter is not valid JSON.');
    }
  }
  const headers = parseHeaders(values.get('headers'), values.get('headers_secret') === 'on');
  if (headers.length) options.headers = headers;
  if (values.get('rate_limit_per_second')) options.rate_limit_per_second = Number(values.get('rate_limit_per_second'));
  return Object.keys(options).length ? options : null;
}

/** Replace the subscription's whole set of delivery options. */
export async function putOptions(subId, options) {
  const { data } = await api('PUT', path(subId), { body: options, headers: idempotencyKey() });
  return data;
}

function headerText(header) {
  return header.secret ? `${header.name}: (secret)` : `${header.name}: ${header.value}`;
}

function optionFacts(options) {
  return facts([
    ['Payload filter', options.filter ? h('code', { class: 'mono' }, JSON.stringify(options.filter)) : 'none: every event'],
    ['Static headers', options.headers.length ? h('ul', {}, options.headers.map((x) => h('li', {}, headerText(x)))) : 'none'],
    ['Rate limit', options.rate_limit_per_second ? `${options.rate_limit_per_second} per second` : 'none'],
    ['Ordering', options.ordering
      ? `per key (attribute ${options.ordering.key}); a dead-lettered event ${options.ordering.on_dead_letter === 'block' ? 'blocks its key' : 'is skipped'}`
      : 'none: unordered'],
  ]);
}

/** The subscription page's section: the options in force. */
export function optionsSection(subId) {
  const box = h('div', { id: 'delivery-options' }, h('p', { class: 'loading', role: 'status' }, 'Loading…'));
  get(path(subId)).then(({ data }) => replace(box, optionFacts(data)), (err) => replace(box, errorBlock(err, null, 'h3')));
  return h('section', { 'aria-labelledby': 'options-title' }, h('h2', { id: 'options-title' }, 'Delivery options'), box);
}
