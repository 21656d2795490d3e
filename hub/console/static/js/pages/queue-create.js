// Create a queue subscription (SQS, EventBridge, RabbitMQ). The API takes no credential at create: the
// page then opens the connect page, where the delegated grant or the credential is set and verified.
import { h, replace } from '../dom.js';
import { api, idempotencyKey } from '../api.js';
import { errorBlock } from '../errors.js';
import { queueKinds } from '../kinds.js';


function input(name, label, attrs = {}, hint) {
  const id = `queue-${name}`;
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('input', { id, name, ...attrs }),
    hint !== undefined ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null);
}

function kindSelect(known) {
  return h('div', { class: 'field' },
    h('label', { for: 'queue-kind' }, 'Destination kind'),
    h('select', { id: 'queue-kind', name: 'sink_kind' },
      Object.entries(known).map(([kind, info]) => h('option', { value: kind }, info.label))));
}

/** The endpoint's label and example follow the chosen kind. */
function followKind(form, known) {
  const kind = known[form.querySelector('#queue-kind').value];
  form.querySelector('label[for=queue-endpoint]').textContent = kind.endpointLabel;
  form.querySelector('#queue-endpoint').placeholder = kind.endpointExample;
  form.querySelector('#queue-endpoint-hint').textContent = `For example ${kind.endpointExample}. Connection details and secrets are set on the next page, never here.`;
}

function body(form) {
  const values = new FormData(form);
  const request = { sink_kind: values.get('sink_kind'), name: values.get('name').trim(), endpoint: values.get('endpoint') };
  const types = values.get('event_types').split(',').map((t) => t.trim()).filter(Boolean);
  if (types.length) request.event_types = types;
  return request;
}

export async function queueCreatePage(main) {
  const known = await queueKinds();
  const result = h('div', { id: 'queue-result' });
  const form = h('form', { class: 'stack', id: 'queue-form' },
    kindSelect(known),
    input('name', 'Name', { required: true, maxlength: 200 }),
    input('endpoint', 'Queue URL', { required: true, autocomplete: 'off', spellcheck: 'false' }, ''),
    input('event_types', 'Event types', { placeholder: 'transaction.posted, invoice.*' }, 'Comma separated; empty for the API default.'),
    h('button', { type: 'submit' }, 'Create'));
  form.querySelector('#queue-kind').addEventListener('change', () => followKind(form, known));
  followKind(form, known);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const submit = form.querySelector('button[type=submit]');
    submit.disabled = true;
    replace(result, h('p', { class: 'loading', role: 'status' }, 'Creating…'));
    try {
      const { data } = await api('POST', '/v1/subscriptions', { body: body(form), headers: idempotencyKey() });
      window.location.hash = `#/subscriptions/${encodeURIComponent(data.subscription.id)}/connect`;
    } catch (err) {
      replace(result, errorBlock(err));
      submit.disabled = false;
    }
  });
  replace(main, h('h1', {}, 'New queue subscription'),
    h('p', { class: 'hint' }, 'Deliver to your SQS queue, EventBridge bus or RabbitMQ exchange. Webhooks have their own form.'),
    form, result);
}
