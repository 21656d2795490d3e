// The console's entry: takes a token from the fragment, then routes #/... to a page module.
import { replace, loading } from './dom.js';
import { adoptFragmentToken, getToken } from './token.js';
import { clearNotice } from './notice.js';
import { errorBlock } from './errors.js';
import { tokenPage } from './pages/token.js';
import { subscriptionsPage } from './pages/subscriptions.js';
import { createPage } from './pages/create.js';
import { queueCreatePage } from './pages/queue-create.js';
import { connectPage } from './pages/connect.js';
import { subscriptionPage } from './pages/subscription.js';
import { catalogPage } from './pages/catalog.js';
import { dashboardPage } from './pages/dashboard.js';
import { pullPage } from './pages/pull.js';
import { dlqPage, readinessPage } from './pages/ops.js';
import { queuesPage } from './pages/queues.js';
import { queuePage } from './pages/queue.js';
import { deadLettersPage } from './pages/deadletters.js';
import { topicsPage } from './pages/topics.js';
import { topicPage } from './pages/topic.js';

const ROUTES = [
  [/^#\/token$/, tokenPage],
  [/^#\/subscriptions\/new$/, createPage],
  [/^#\/subscriptions\/new-queue$/, queueCreatePage],
  [/^#\/subscriptions\/([^/]+)\/connect$/, connectPage],
  [/^#\/subscriptions\/([^/]+)\/pull$/, pullPage],
  [/^#\/subscriptions\/([^/]+)$/, subscriptionPage],
  [/^#\/subscriptions(?:\?.*)?$/, subscriptionsPage],
  [/^#\/topics$/, topicsPage],
  [/^#\/topics\/([^/?]+)$/, topicPage],
  [/^#\/queues(?:\?.*)?$/, queuesPage],
  [/^#\/queues\/([^/?]+)$/, queuePage],
  [/^#\/catalog$/, catalogPage],
  [/^#\/dashboard(?:\?.*)?$/, dashboardPage],
  [/^#\/ops\/dlq(?:\?.*)?$/, dlqPage],
  [/^#\/ops\/ready$/, readinessPage],
  [/^#\/ops\/dead-letters$/, deadLettersPage],
];

let generation = 0;

function markCurrent(hash) {
  for (const link of document.querySelectorAll('#nav a')) {
    if (link.getAttribute('href') === hash) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

/** Render the page of the current fragment; a stale render (the user moved on) is dropped. */
async function route() {
  const main = document.getElementById('main');
  adoptFragmentToken(); // replaceState fires no hashchange: read the hash after it
  const hash = window.location.hash || '';
  if (!getToken() && hash !== '#/token') { window.location.hash = '#/token'; return; }
  if (!hash || hash === '#' || hash === '#/') { window.location.hash = '#/subscriptions'; return; }
  const found = ROUTES.map(([pattern, page]) => [pattern.exec(hash), page]).find(([m]) => m);
  const mine = ++generation;
  clearNotice();
  markCurrent(hash);
  replace(main, loading());
  const current = () => mine === generation;
  try {
    if (!found) throw Object.assign(new Error('No such page'), { status: 404, problem: {} });
    const [match, page] = found;
    await page(main, { params: match.slice(1).map(decodeURIComponent), current, rerender: route });
  } catch (err) {
    if (current()) replace(main, errorBlock(err, route, 'h1'));
    if (!(err && 'status' in err)) console.warn(err);
  }
  if (current()) main.focus({ preventScroll: true });
}

window.addEventListener('hashchange', route);
route();
