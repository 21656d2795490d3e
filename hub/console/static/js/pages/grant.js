// The delegated-grant path of an SQS or EventBridge subscription: the setup artifacts (trust policy,
// ExternalId, the CloudFormation quick-create link), then the grant (role ARN, region, destination).
import { h, replace, facts } from '../dom.js';
import { api, get, idempotencyKey } from '../api.js';
import { errorBlock } from '../errors.js';
import { copyText } from '../copy.js';

const path = (subId, tail) => `/v1/subscriptions/${encodeURIComponent(subId)}${tail}`;


function copyButton(id, text, node, what) {
  return h('button', { type: 'button', id, onclick: () => copyText(text, node, what) }, 'Copy');
}

/** The quick-create link is the hub's; it is a link only when it is an https URL. */
function quickCreate(url) {
  if (!/^https:\/\//.test(url || '')) return h('span', { class: 'mono' }, url || '—');
  return h('a', { href: url, id: 'quick-create', target: '_blank', rel: 'noopener noreferrer' },
    'Create the delivery role with CloudFormation (opens the AWS console)');
}

function artifactsView(data) {
  const externalId = h('code', { id: 'external-id', class: 'secret' }, data.externalId);
  const policy = h('pre', { id: 'trust-policy' }, data.trustPolicy);
  return h('div', { id: 'setup-artifacts' },
    facts([
      ['ExternalId', h('span', {}, externalId, ' ', copyButton('copy-external-id', data.externalId, externalId, 'ExternalId'))],
      ['Region', data.region],
      ['Quick-create link', quickCreate(data.quickCreateUrl)],
    ]),
    h('h4', {}, 'Trust policy of the delivery role'),
    policy,
    h('p', {}, copyButton('copy-trust-policy', data.trustPolicy, policy, 'Trust policy')));
}

function field(name, label, attrs, hint) {
  const id = `grant-${name}`;
  return h('div', { class: 'field' }, h('label', { for: id }, label),
    h('input', { id, name, required: true, autocomplete: 'off', spellcheck: 'false', ...attrs }),
    hint ? h('p', { class: 'hint' }, hint) : null);
}

function grantForm(sub, onRegistered, destinationHint) {
  const out = h('div', { class: 'action-out', 'aria-live': 'polite', id: 'grant-result' });
  const form = h('form', { class: 'stack', id: 'grant-form' },
    field('roleArn', 'Role ARN', { placeholder: 'arn:aws:iam::123456789012:role/streaming-hub-delivery' },
      'The role the stack (or your own IaC) created from the trust policy above.'),
    field('region', 'Region', { placeholder: 'us-east-1' }),
    field('destination', 'Destination', {}, destinationHint),
    h('button', { type: 'submit' }, 'Register the grant'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(form));
    replace(out, h('span', { class: 'loading' }, 'Registering…'));
    try {
      await api('PUT', path(sub.id, '/delegated-grant'), { body: values, headers: idempotencyKey() });
      replace(out, h('p', { id: 'grant-registered' }, 'Grant registered. Verify to activate the subscription.'));
      onRegistered();
    } catch (err) {
      replace(out, errorBlock(err, null, 'h4'));
    }
  });
  return h('div', {}, form, out);
}

/** The section; ON_REGISTERED runs after the grant is stored (the page then offers Verify). */
export function grantSection(sub, onRegistered, destinationHint) {
  const box = h('div', { id: 'artifacts-box' }, h('p', { class: 'loading', role: 'status' }, 'Loading the setup artifacts…'));
  const form = grantForm(sub, onRegistered, destinationHint);
  get(path(sub.id, '/setup-artifacts')).then(({ data }) => {
    replace(box, artifactsView(data));
    const region = form.querySelector('#grant-region');
    if (!region.value) region.value = data.region;
  }, (err) => replace(box, errorBlock(err, null, 'h4')));
  return h('section', { 'aria-labelledby': 'grant-title', id: 'grant' },
    h('h2', { id: 'grant-title' }, 'Delegated grant (recommended)'),
    h('p', { class: 'hint' }, 'No key leaves your account: you create a role that only the hub may assume, and only with this ExternalId.'),
    h('h3', {}, '1. Create the delivery role'), box,
    h('h3', {}, '2. Register the grant'), form);
}
