// The credential path: a static AWS key pair, or the RabbitMQ broker URI. Probe-on-write: the hub
// stores the credential (sealed) only when its probe succeeds. Secret inputs are cleared once sent:
// the page never shows a credential again and never puts one in the URL or in storage.
import { h, replace, facts } from '../dom.js';
import { api } from '../api.js';
import { errorBlock } from '../errors.js';
import { probeFacts } from './actions.js';

const path = (subId) => `/v1/subscriptions/${encodeURIComponent(subId)}/credential`;

const FIELDS = {
  aws: [
    ['region', 'Region', { required: true, placeholder: 'us-east-1' }],
    ['accessKeyId', 'Access key id', { required: true }],
    ['secretAccessKey', 'Secret access key', { required: true, type: 'password' }],
    ['sessionToken', 'Session token (optional)', { type: 'password' }],
  ],
  rabbitmq: [
    ['uri', 'Broker URI', { required: true, type: 'password', placeholder: 'amqps://user:password@broker.example.com/vhost' }],
  ],
};

function input([name, label, attrs]) {
  const id = `credential-${name}`;
  return h('div', { class: 'field' }, h('label', { for: id }, label),
    h('input', { id, name, autocomplete: 'off', spellcheck: 'false', ...attrs }));
}

/** The sinkConfig from the form: empty optional fields are left out. */
function sinkConfig(form) {
  return Object.fromEntries([...new FormData(form)].filter(([, value]) => value !== ''));
}

function outcome(data) {
  const stored = data.outcome === 'ok'
    ? h('p', { id: 'credential-stored' }, 'The probe succeeded: the credential is stored sealed and the subscription is active.')
    : h('p', { class: 'warn', id: 'credential-refused' }, 'The probe failed: nothing was stored.');
  return h('div', { id: 'probe-result' }, stored, probeFacts(data));
}

/** The section; ON_PROBED(result) runs after every probe. */
export function credentialSection(sub, onProbed) {
  const aws = sub.sink_kind !== 'rabbitmq';
  const out = h('div', { class: 'action-out', 'aria-live': 'polite', id: 'credential-result' });
  const form = h('form', { class: 'stack', id: 'credential-form', autocomplete: 'off' },
    (aws ? FIELDS.aws : FIELDS.rabbitmq).map(input),
    h('button', { type: 'submit' }, 'Probe and store'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const config = sinkConfig(form);
    form.reset(); // the secret leaves the page with this request
    replace(out, h('span', { class: 'loading' }, 'Probing…'));
    try {
      const { data } = await api('PUT', path(sub.id), { body: { sinkConfig: config } });
      replace(out, outcome(data));
      onProbed(data);
    } catch (err) {
      replace(out, errorBlock(err, null, 'h4'));
    }
  });
  return h('section', { 'aria-labelledby': 'credential-title', id: 'credential' },
    h('h2', { id: 'credential-title' }, aws ? 'Static credential' : 'Broker credential'),
    h('p', { class: 'hint' }, aws
      ? 'An access key pair allowed to send to the destination. Prefer the delegated grant.'
      : 'The broker URI with its user and password; the hub probes it by logging in and finding the exchange.'),
    facts([['Stored', sub.secret_configured ? `yes, since ${sub.secret_rotated_at || '—'} (never shown again)` : 'no']]),
    form, out);
}
