// The user's token: kept in this tab's sessionStorage only (never localStorage, never a cookie,
// never a query string), so it leaves with the tab and never reaches a server log in a URL.

const KEY = 'hub-console-token';

export function getToken() {
  return sessionStorage.getItem(KEY) || '';
}

export function setToken(token) {
  sessionStorage.setItem(KEY, token.trim());
}

export function clearToken() {
  sessionStorage.removeItem(KEY);
}

/** Take a token handed over in the fragment (#token=...) and drop it from the address bar. */
export function adoptFragmentToken() {
  const match = /^#token=([^&]+)/.exec(window.location.hash);
  if (!match) return false;
  setToken(decodeURIComponent(match[1]));
  // replaceState, not assignment: the fragment with the token leaves the history entry too.
  history.replaceState(null, '', `${window.location.pathname}#/subscriptions`);
  return true;
}

/** The token's claims for display (tenant, operator); the API stays the judge of what it allows. */
export function claims() {
  const token = getToken();
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(payload));
  } catch {
    return {};
  }
}
