// Token entry: paste a bearer token; it is kept in this tab's sessionStorage only.
import { h, replace, facts } from '../dom.js';
import { getToken, setToken, clearToken, claims } from '../token.js';
import { notify } from '../notice.js';

export async function tokenPage(main) {
  const input = h('textarea', { id: 'token-input', name: 'token', rows: 4, autocomplete: 'off',
    spellcheck: 'false', required: true, 'aria-describedby': 'token-help' });
  const form = h('form', { class: 'stack' },
    h('label', { for: 'token-input' }, 'Bearer token'),
    input,
    h('p', { id: 'token-help', class: 'hint' },
      'The token stays in this browser tab (sessionStorage) and is sent only to this hub as an ',
      h('code', {}, 'Authorization'), ' header. A link of the form ', h('code', {}, '/console#token=…'),
      ' hands one over without it reaching the server.'),
    h('button', { type: 'submit' }, 'Use this token'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!input.value.trim()) return;
    setToken(input.value);
    window.location.hash = '#/subscriptions';
  });
  const current = getToken() ? claims() : null;
  replace(main,
    h('h1', {}, 'Token'),
    current ? h('section', {}, h('h2', {}, 'Current token'),
      facts([['Tenant', tenantOf(current)], ['Subject', current.sub],
        ['Expires', current.exp ? new Date(current.exp * 1000).toISOString() : '—']]),
      h('button', { type: 'button', id: 'forget-token', onclick: () => { clearToken(); notify('Token forgotten.'); tokenPage(main); } }, 'Forget token'))
      : h('p', {}, 'Enter a token to use the console.'),
    form);
}

/** The tenant claim, whatever the deployment names it (any claim whose name mentions tenant). */
function tenantOf(values) {
  const key = Object.keys(values).find((name) => /tenant/i.test(name));
  return key ? String(values[key]) : '—';
}
