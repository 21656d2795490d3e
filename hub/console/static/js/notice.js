// The page-wide status line (aria-live): rate-limit waits, copied secrets, finished actions.
import { replace } from './dom.js';

export function notify(text, tone = 'info') {
  const box = document.getElementById('notice');
  if (!box) return;
  box.className = `notice notice-${tone}`;
  replace(box, text);
}

export function clearNotice() {
  const box = document.getElementById('notice');
  if (box) { box.className = ''; box.replaceChildren(); }
}
