// Create a webhook subscription; the signing secret is shown once, with a copy button. Delivery options
// given in the form are set with PUT …/delivery-options once the subscription exists.
import { h, replace, facts } from '../dom.js';
import { api, idempotencyKey } from '../api.js';
import { errorBlock } from '../errors.js';
import { copyText } from '../copy.js';
import { optionFields, putOptions, readOptions } from './options.js';

function field(name, label, attrs = {}, hint) {
  const id = `create-${name}`;
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('input', { id, name, ...attrs }),
    hint ? h('p', { class: 'hint' }, hint) : null);
}

/** The request body from the form: empty optional fields are left out. */
function body(form) {
  const values = new FormData(form);
  const request = { sink_kind: 'webhook', name: values.get('name').trim(), endpoint: values.get('endpoint').trim() };
  const types = values.get('event_types').split(',').map((t) => t.trim()).filter(Boolean);
  if (types.length) request.event_types = types;
  if (values.get('schema_major')) request.schema_major = Number(values.get('schema_major'));
  if (values.get('timeout_ms')) request.timeout_ms = Number(values.get('timeout_ms'));
  return request;
}

function secretPanel(data, optionsNote) {
  const sub = data.subscription;
  const secret = h('code', { id: 'signing-secret', class: 'secret' }, data.signingSecret);
  const button = h('button', { type: 'button', id: 'copy-secret' }, 'Copy');
  button.addEventListener('click', () => copyText(data.signingSecret, secret, 'Signing secret'));
  return h('section', { class: 'created', 'aria-labelledby': 'created-title' },
    h('h2', { id: 'created-title' }, 'Subscription created'),
    facts([['Name', sub.name], ['Id', sub.id], ['Endpoint', sub.endpoint_display ?? sub.endpoint]]),
    h('p', { class: 'warn' }, 'This signing secret is shown once. Store it now: the hub cannot show it again.'),
    h('p', { class: 'secret-row' }, secret, ' ', button),
    optionsNote,
    h('p', {}, h('a', { href: `#/subscriptions/${encodeURIComponent(sub.id)}`, class: 'btn', id: 'open-created' }, 'Open the subscription')));
}

/** Set the form's delivery options on the new subscription; a refusal is shown beside the secret. */
async function applyOptions(subId, options) {
  try {
    await putOptions(subId, options);
    return h('p', { id: 'options-set' }, 'Delivery options set.');
  } catch (err) {
    return h('div', { id: 'options-refused' },
      h('p', { class: 'warn' }, 'The subscription was created, but its delivery options were refused:'),
      errorBlock(err, null, 'h3'));
  }
}

export async function createPage(main) {
  const result = h('div', { id: 'create-result' });
  const form = h('form', { class: 'stack', id: 'create-form' },
    field('name', 'Name', { required: true, maxlength: 200 }),
    field('endpoint', 'Endpoint URL', { type: 'url', required: true, placeholder: 'https://example.com/hooks' }),
    field('event_types', 'Event types', { placeholder: 'transaction.posted, invoice.*' }, 'Comma separated; empty for the API default.'),
    field('schema_major', 'Schema major', { type: 'number', min: 1 }),
    field('timeout_ms', 'Timeout (ms)', { type: 'number', min: 1 }),
    optionFields(),
    h('button', { type: 'submit' }, 'Create'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    let options;
    try {
      options = readOptions(new FormData(form));
    } catch (err) {
      replace(result, h('p', { class: 'error', role: 'alert' }, err.message));
      return;
    }
    const submit = form.querySelector('button[type=submit]');
    submit.disabled = true;
    replace(result, h('p', { class: 'loading', role: 'status' }, 'Creating…'));
    try {
      const { data } = await api('POST', '/v1/subscriptions', { body: body(form), headers: idempotencyKey() });
      form.remove();
      replace(result, secretPanel(data, options ? await applyOptions(data.subscription.id, options) : null));
      result.querySelector('#copy-secret').focus();
    } catch (err) {
      replace(result, errorBlock(err));
      submit.disabled = false;
    }
  });
  replace(main, h('h1', {}, 'New webhook subscription'), form, result);
}
