// Connect a queue subscription to its destination: the delegated grant (SQS, EventBridge), the
// credential (all three kinds), and Verify. Reached from the queue create form and the subscription page.
import { h, replace, facts, badge } from '../dom.js';
import { api, get } from '../api.js';
import { errorBlock } from '../errors.js';
import { notify } from '../notice.js';
import { probeFacts } from './actions.js';
import { grantSection } from './grant.js';
import { credentialSection } from './credential.js';
import { queueKinds } from '../kinds.js';

function verifySection(sub, state) {
  const out = h('div', { class: 'action-out', 'aria-live': 'polite', id: 'verify-result' });
  const button = h('button', { type: 'button', id: 'connect-verify' }, 'Verify');
  button.addEventListener('click', async () => {
    button.disabled = true;
    replace(out, h('span', { class: 'loading' }, 'Probing the destination…'));
    try {
      const { data } = await api('POST', `/v1/subscriptions/${encodeURIComponent(sub.id)}/verify`);
      replace(out, probeFacts(data));
      if (data.outcome === 'ok') {
        replace(state, badge('active'));
        notify('Verified: the subscription is active.');
      }
    } catch (err) {
      replace(out, errorBlock(err, null, 'h4'));
    }
    button.disabled = false;
  });
  return h('section', { 'aria-labelledby': 'verify-title', id: 'verify' },
    h('h2', { id: 'verify-title' }, 'Verify'),
    h('p', { class: 'hint' }, 'Probes the destination with what is stored; success activates the subscription.'),
    button, out);
}

export async function connectPage(main, { params: [subId], current }) {
  const { data } = await get(`/v1/subscriptions/${encodeURIComponent(subId)}`);
  if (!current()) return;
  const sub = data.subscription;
  const kind = (await queueKinds())[sub.sink_kind];
  if (!kind) throw Object.assign(new Error('Not a queue subscription'), { status: 404, problem: { detail: `A ${sub.sink_kind} subscription has no destination to connect.` } });
  const state = h('span', { id: 'connect-state' }, badge(sub.verification_state));
  const verify = verifySection(sub, state);
  const onProbed = (result) => { if (result.outcome === 'ok') replace(state, badge('active')); };
  replace(main,
    h('p', {}, h('a', { href: `#/subscriptions/${encodeURIComponent(sub.id)}` }, '← The subscription')),
    h('h1', {}, `Connect ${sub.name || sub.id}`),
    facts([['Kind', kind.label], [kind.endpoint, sub.endpoint_display], ['State', state],
      ['Access', sub.credential_kind]]),
    kind.takesGrant ? grantSection(sub, () => verify.querySelector('button').focus(), kind.grantDestinationHint) : null,
    credentialSection(sub, onProbed),
    verify);
}
