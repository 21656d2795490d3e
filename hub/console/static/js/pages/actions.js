// A subscription's actions: ping, rotate the secret, re-pin the schema major, recover a time range.
// Destructive ones ask for a confirmation in the page (a second button), not window.confirm.
import { h, replace, facts } from '../dom.js';
import { api, get, idempotencyKey } from '../api.js';
import { errorBlock } from '../errors.js';
import { notify } from '../notice.js';

const path = (sub, tail) => `/v1/subscriptions/${encodeURIComponent(sub.id)}${tail}`;

/** A button that runs ACTION and renders its result (or its error) into an output box. */
function action(label, id, run) {
  const out = h('div', { class: 'action-out', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', id }, label);
  button.addEventListener('click', async () => {
    button.disabled = true;
    replace(out, h('span', { class: 'loading' }, 'Working…'));
    try { replace(out, await run()); } catch (err) { replace(out, errorBlock(err)); }
    button.disabled = false;
  });
  return h('div', { class: 'action' }, button, out);
}

/** A two-step button: the first press asks, the confirm button runs. */
function confirmed(label, id, question, run) {
  const out = h('div', { class: 'action-out', 'aria-live': 'polite' });
  const ask = h('button', { type: 'button', id }, label);
  ask.addEventListener('click', () => {
    const yes = h('button', { type: 'button', id: `${id}-confirm`, class: 'danger' }, 'Confirm');
    const no = h('button', { type: 'button', onclick: () => replace(out) }, 'Cancel');
    yes.addEventListener('click', async () => {
      replace(out, h('span', { class: 'loading' }, 'Working…'));
      try { replace(out, await run(out)); } catch (err) { replace(out, errorBlock(err)); }
    });
    replace(out, h('p', { class: 'confirm' }, question, ' ', yes, ' ', no));
    yes.focus();
  });
  return h('div', { class: 'action' }, ask, out);
}

export const probeFacts = (data) => facts([['Outcome', data.outcome], ['HTTP status', data.statusCode],
  ['Error class', data.errorClass], ['Detail', data.detail]]);

function ping(sub) {
  return action('Ping', 'ping', async () => probeFacts((await api('POST', path(sub, '/ping'))).data));
}

/** Verify re-runs the probe; success activates (and re-enables) the subscription. */
function verify(sub, rerender) {
  return action('Verify', 'verify', async () => {
    const { data } = await api('POST', path(sub, '/verify'));
    if (data.outcome !== 'ok') return probeFacts(data);
    await rerender();
    notify('Verified: the subscription is active.');
    return '';
  });
}

function rotate(sub) {
  return confirmed('Rotate secret', 'rotate', 'Issue a new signing secret? The old one keeps working until the overlap ends.', async () => {
    const { data } = await api('POST', path(sub, '/secret/rotate'), { headers: idempotencyKey() });
    return h('div', {}, h('p', { class: 'warn' }, 'New signing secret, shown once:'),
      h('code', { class: 'secret' }, data.signingSecret), facts([['Old secret valid until', data.overlapUntil]]));
  });
}

function repin(sub) {
  const input = h('input', { type: 'number', min: 1, id: 'schema-major', value: sub.schema_major ?? '' });
  const form = h('form', { class: 'inline' }, h('label', { for: 'schema-major' }, 'Schema major '), input, ' ',
    h('button', { type: 'submit' }, 'Re-pin'));
  const out = h('div', { class: 'action-out', 'aria-live': 'polite' });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await api('PATCH', path(sub, ''), { body: { schema_major: Number(input.value) }, headers: idempotencyKey() });
      replace(out, `Pinned to schema major ${Number(input.value)}.`);
    } catch (err) { replace(out, errorBlock(err)); }
  });
  return h('div', { class: 'action' }, form, out);
}

const isoOf = (local) => (local ? new Date(local).toISOString() : undefined);

async function watchRecovery(sub, recovery, out) {
  for (let i = 0; i < 60 && recovery.state !== 'completed'; i += 1) {
    replace(out, recoveryFacts(recovery));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    recovery = (await get(path(sub, `/recoveries/${encodeURIComponent(recovery.id)}`))).data.recovery;
  }
  return recoveryFacts(recovery);
}

function recoveryFacts(r) {
  return h('div', { id: 'recovery' }, facts([['Recovery', r.id], ['State', r.state], ['Matched', r.matched],
    ['Re-queued', r.requeued], ['Skipped', r.skipped]]));
}

function recover(sub) {
  const since = h('input', { type: 'datetime-local', id: 'recover-since', required: true });
  const until = h('input', { type: 'datetime-local', id: 'recover-until' });
  const outcomes = ['failed', 'dead_lettered', 'disabled'].map((o) => h('label', {}, h('input', { type: 'checkbox', name: 'outcome', value: o, checked: o !== 'disabled' }), ` ${o} `));
  const run = async (out) => {
    const chosen = outcomes.map((l) => l.firstChild).filter((c) => c.checked).map((c) => c.value);
    const body = { since: isoOf(since.value), until: isoOf(until.value), outcomes: chosen };
    const { data } = await api('POST', path(sub, '/recover'), { body, headers: idempotencyKey() });
    return watchRecovery(sub, data.recovery, out);
  };
  const form = h('fieldset', {}, h('legend', {}, 'Recover a time range'),
    h('label', { for: 'recover-since' }, 'Since '), since, ' ', h('label', { for: 'recover-until' }, 'Until '), until,
    h('p', {}, outcomes),
    confirmed('Recover', 'recover', 'Re-deliver every matching failed job in this range?', async (out) => {
      if (!since.value) return h('p', { class: 'warn' }, 'Choose a start time first.');
      return run(out);
    }));
  return h('div', { class: 'action' }, form);
}

export function actionsSection(sub, rerender) {
  const webhook = sub.sink_kind === 'webhook';
  return h('section', { 'aria-labelledby': 'actions-title' },
    h('h2', { id: 'actions-title' }, 'Actions'),
    ping(sub),
    sub.verification_state !== 'active' || !sub.enabled ? verify(sub, rerender) : null,
    webhook ? rotate(sub) : null,
    repin(sub),
    sub.sink_kind !== 'pull' ? recover(sub) : null);
}
