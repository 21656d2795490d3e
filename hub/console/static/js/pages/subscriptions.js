// The subscriptions list: kind, state, enabled and a health badge; filtered and paged by the API.
import { h, replace, table, badge, emptyState, when } from '../dom.js';
import { get } from '../api.js';
import { kinds } from '../kinds.js';

const PAGE_SIZE = 20;
const STATES = ['', 'pending_verification', 'active', 'degraded'];

/** The filters and cursor kept in the fragment (#/subscriptions?sink_kind=...&after=...). */
function hashParams() {
  const at = window.location.hash.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : window.location.hash.slice(at + 1));
}

function go(params) {
  const text = new URLSearchParams([...params].filter(([, v]) => v)).toString();
  window.location.hash = `#/subscriptions${text ? `?${text}` : ''}`;
}

function select(name, label, options, value) {
  return h('label', {}, label, h('select', { name },
    options.map((option) => h('option', { value: option, selected: option === value }, option || 'any'))));
}

function filterForm(params, known) {
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter subscriptions' },
    h('label', {}, 'Name', h('input', { name: 'name', type: 'search', value: params.get('name') || '' })),
    select('sink_kind', 'Kind', ['', ...known.map((info) => info.kind)], params.get('sink_kind') || ''),
    select('verification_state', 'State', STATES, params.get('verification_state') || ''),
    select('enabled', 'Enabled', ['', 'true', 'false'], params.get('enabled') || ''),
    h('button', { type: 'submit' }, 'Filter'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    go(new URLSearchParams(new FormData(form)));
  });
  return form;
}

/** Fill each row's health badge, a few requests at a time (health is one call per subscription). */
async function fillHealth(cells, current) {
  const queue = [...cells];
  const worker = async () => {
    while (queue.length && current()) {
      const [id, cell] = queue.shift();
      try {
        const { data } = await get(`/v1/subscriptions/${encodeURIComponent(id)}/health`);
        replace(cell, badge(data.status));
      } catch (err) {
        replace(cell, h('span', { class: 'badge badge-other', title: err.message }, `n/a (${err.status})`));
      }
    }
  };
  await Promise.all([worker(), worker(), worker()]);
}

function row(sub, healthCells) {
  const cell = h('span', { class: 'badge badge-other' }, '…');
  healthCells.push([sub.id, cell]);
  return [
    h('a', { href: `#/subscriptions/${encodeURIComponent(sub.id)}` }, sub.name || sub.id),
    sub.sink_kind, badge(sub.verification_state), sub.enabled ? 'yes' : 'no', cell, when(sub.created_at),
  ];
}

export async function subscriptionsPage(main, { current }) {
  const params = hashParams();
  const query = Object.fromEntries(params);
  const [{ data }, known] = await Promise.all([get('/v1/subscriptions', { ...query, limit: PAGE_SIZE }), kinds()]);
  if (!current()) return;
  const healthCells = [];
  const subs = data.subscriptions || [];
  const nextParams = new URLSearchParams(params);
  nextParams.set('after', data.next_cursor || '');
  replace(main,
    h('h1', {}, 'Subscriptions'),
    h('p', { class: 'actions' }, h('a', { href: '#/subscriptions/new', class: 'btn', id: 'new-webhook' }, 'Create a webhook subscription'), ' ',
      h('a', { href: '#/subscriptions/new-queue', class: 'btn', id: 'new-queue' }, 'Create a queue subscription')),
    filterForm(params, known),
    subs.length
      ? table('Subscriptions', ['Name', 'Kind', 'State', 'Enabled', 'Health', 'Created'], subs.map((sub) => row(sub, healthCells)))
      : emptyState(params.toString() ? 'No subscription matches these filters.' : 'No subscriptions yet. Create one to start receiving events.'),
    h('nav', { class: 'pager', 'aria-label': 'Pages' },
      params.get('after') ? h('button', { type: 'button', onclick: () => history.back() }, 'Previous page') : null,
      data.next_cursor ? h('button', { type: 'button', id: 'next-page', onclick: () => go(nextParams) }, 'Next page') : null));
  fillHealth(healthCells, current);
}
