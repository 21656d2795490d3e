// The live view of a topic over the broker's WebSocket (E9). A browser cannot set headers on a
// WebSocket, so the token rides in the socket's `token` query parameter (E9's carrier; the address bar
// never holds it). On an unexpected close it reconnects with `since` = the last ts seen, dropping ids
// already shown, so nothing is lost or shown twice.
import { h, replace } from '../dom.js';
import { getToken } from '../token.js';
import { eventBase } from './topics.js';

const MAX_SHOWN = 200;
const RETRY_MS = 2000;

function socketUrl(topic, since) {
  const params = new URLSearchParams({ topic, token: getToken() });
  if (since !== undefined) params.set('since', String(since));
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${eventBase()}/ws?${params}`;
}

export function liveSection(topic) {
  const list = h('ol', { id: 'live-events', reversed: true });
  const status = h('p', { id: 'live-status', 'aria-live': 'polite' }, 'Not watching.');
  const button = h('button', { type: 'button', id: 'live-toggle' }, 'Watch live');
  const state = { socket: null, since: undefined, seen: new Set(), stopped: true };
  const show = (frame) => {
    if (state.seen.has(frame.id)) return;
    state.seen.add(frame.id);
    state.since = frame.ts;
    list.prepend(h('li', {}, h('span', { class: 'mono' }, new Date(frame.ts).toISOString()), ` ${frame.topic} ${frame.type} `, h('code', {}, JSON.stringify(frame.data))));
    while (list.children.length > MAX_SHOWN) list.lastChild.remove();
  };
  const open = () => {
    const socket = new WebSocket(socketUrl(topic, state.since));
    state.socket = socket;
    socket.addEventListener('open', () => replace(status, 'Watching: new events appear at the top.'));
    socket.addEventListener('message', (message) => {
      try { const frame = JSON.parse(message.data); if (frame && frame.id) show(frame); } catch { /* not a frame of ours */ }
    });
    socket.addEventListener('close', (event) => {
      if (state.stopped || !document.body.contains(list)) return;
      if (event.code >= 4400 && event.code < 4500) { replace(status, `Refused (${event.code}): ${event.reason}`); stop(); return; }
      replace(status, `Disconnected (${event.code}); reconnecting from the last event seen…`);
      setTimeout(() => { if (!state.stopped && document.body.contains(list)) open(); }, RETRY_MS);
    });
  };
  const stop = () => { state.stopped = true; if (state.socket) state.socket.close(); button.textContent = 'Watch live'; };
  button.addEventListener('click', () => {
    if (!state.stopped) { stop(); replace(status, 'Stopped.'); return; }
    state.stopped = false;
    button.textContent = 'Stop';
    replace(status, 'Connecting…');
    open();
  });
  window.addEventListener('hashchange', stop, { once: true });
  return h('section', { 'aria-labelledby': 'live-title' }, h('h2', { id: 'live-title' }, 'Live'), button, status, list);
}
