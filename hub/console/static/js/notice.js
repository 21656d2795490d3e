// The page-wide status line (aria-live): rate-limit waits, copied secrets, finished actions.
import { replace } from './dom.js';

let pending = null;

export function notify(text, tone = 'info') {
  const box = document.getElementById('notice');
  if (!box) return;
  box.className = `notice notice-${tone}`;
  replace(box, text);
}

/** A notice for the page the user is sent to next (a route change clears the current one). */
export function notifyNext(text, tone = 'info') {
  pending = [text, tone];
}

export function clearNotice() {
  const box = document.getElementById('notice');
  if (box) { box.className = ''; box.replaceChildren(); }
  if (pending) { notify(...pending); pending = null; }
}
