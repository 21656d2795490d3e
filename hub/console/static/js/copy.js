// Copy a value to the clipboard; when the browser refuses, select its text so the user can press Ctrl+C.
import { notify } from './notice.js';

/** Copy TEXT; NODE is the element showing it (selected when the clipboard is refused); WHAT names it. */
export async function copyText(text, node, what) {
  try {
    await navigator.clipboard.writeText(text);
    notify(`${what} copied to the clipboard.`);
  } catch {
    const range = document.createRange();
    range.selectNodeContents(node);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    notify(`Copy was refused by the browser: the ${what.toLowerCase()} is selected, press Ctrl+C.`, 'warn');
  }
}
