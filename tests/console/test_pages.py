"""The tenant pages in Chromium: token hand-over, the list, creating a webhook, the delivery log,
resend and recover, and untrusted data shown as text."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import httpx

from hub.auth.tokens import mint_token
from tests.conftest import ALL_PERMISSIONS
from tests.console.api import activate, create_webhook, delivery_options, failed_job
from tests.console.conftest import Console

XSS_NAME = '<img src=x onerror="alert(1)">'
XSS_TYPE = "<script>alert(2)</script>"
XSS_DETAIL = '"><img src=x onerror=alert(3)> HTTP 503'


def test_console_is_served_with_a_strict_policy_and_no_inline_script(hub_base: str) -> None:
    answer = httpx.get(f"{hub_base}/console/", timeout=10)
    policy = answer.headers["content-security-policy"]
    assert answer.status_code == 200
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "default-src 'none'" in policy
    assert "<script>" not in answer.text and 'type="module" src=' in answer.text
    assert httpx.get(f"{hub_base}/console", timeout=10, follow_redirects=False).headers["location"] == "/console/"
    assert not any(path.startswith("/console") for path in httpx.get(f"{hub_base}/openapi.json", timeout=10).json()["paths"])


def test_a_fragment_token_lists_the_subscriptions_and_leaves_the_address_bar(console: Console, tenant_token: str) -> None:
    name = create_webhook(console.base, tenant_token)["subscription"]["name"]
    requested: list[str] = []
    console.page.on("request", lambda request: requested.append(request.url))
    console.open(tenant_token)
    page = console.page
    page.get_by_role("link", name=name).wait_for()
    assert tenant_token not in page.url and page.url.endswith("#/subscriptions")
    assert page.evaluate("sessionStorage.getItem('hub-console-token')") == tenant_token
    assert page.evaluate("localStorage.length") == 0 and page.evaluate("document.cookie") == ""
    row = page.locator("tr", has_text=name)
    assert "webhook" in row.inner_text() and "pending_verification" in row.inner_text()
    row.locator(".badge").last.wait_for()
    page.wait_for_function("() => ![...document.querySelectorAll('td .badge')].some(b => b.textContent === '…')")
    console.shot("subscriptions")
    assert requested and not any(tenant_token in url for url in requested)  # the fragment is never sent


def test_creating_a_webhook_shows_its_secret_once(console: Console, tenant_token: str) -> None:
    console.open(tenant_token, "#/subscriptions/new")
    page = console.page
    page.fill("#create-name", "orders hook")
    page.fill("#create-endpoint", "https://93.184.215.14/hooks/orders")
    page.get_by_role("button", name="Create").click()
    secret = page.locator("#signing-secret").inner_text()
    assert len(secret) >= 32 and " " not in secret, secret
    page.get_by_role("button", name="Copy").wait_for()
    console.shot("created")
    page.click("#open-created")
    page.locator("h1", has_text="orders hook").wait_for()
    assert secret not in page.content()


def _fill_webhook(page, name: str) -> None:  # noqa: ANN001
    page.fill("#create-name", name)
    page.fill("#create-endpoint", "https://93.184.215.14/hooks/orders")


def test_creating_a_webhook_with_delivery_options_puts_them_after_the_create(console: Console,
                                                                            tenant_token: str) -> None:
    """N67: the form's filter, headers and rate limit go to PUT …/delivery-options once the webhook exists."""
    console.open(tenant_token, "#/subscriptions/new")
    page = console.page
    _fill_webhook(page, "filtered hook")
    page.fill("#create-filter", '{"data.total": {"$gte": 100}}')
    page.fill("#create-headers", "X-Team: payments\nX-Api-Key: k-123")
    page.check("#create-headers_secret")
    page.fill("#create-rate_limit_per_second", "25")
    page.get_by_role("button", name="Create").click()
    page.locator("#options-set").wait_for()
    assert page.locator("#signing-secret").inner_text()
    page.click("#open-created")
    page.locator("h1", has_text="filtered hook").wait_for()
    sub_id = page.url.rsplit("/", 1)[-1]
    assert delivery_options(console.base, tenant_token, sub_id) == {
        "filter": {"data.total": {"$gte": 100}}, "rate_limit_per_second": 25,
        "headers": [{"name": "X-Team", "secret": True}, {"name": "X-Api-Key", "secret": True}], "ordering": None}
    shown = page.locator("#delivery-options dl")
    shown.wait_for()
    assert '{"data.total":{"$gte":100}}' in shown.inner_text() and "X-Api-Key: (secret)" in shown.inner_text()
    assert "k-123" not in page.content() and "25 per second" in shown.inner_text()


def test_refused_delivery_options_still_show_the_secret(console: Console, tenant_token: str) -> None:
    """The subscription exists once the POST answered: a refused PUT is reported beside the one-time secret."""
    console.expect_failed_loads(422)
    console.open(tenant_token, "#/subscriptions/new")
    page = console.page
    _fill_webhook(page, "hook with a forged header")
    page.fill("#create-headers", "Webhook-Signature: forged")
    page.get_by_role("button", name="Create").click()
    refused = page.locator("#options-refused")
    refused.wait_for()
    assert "headers/0/name" in refused.inner_text()
    assert page.locator("#signing-secret").inner_text()


def test_a_filter_that_is_not_json_creates_nothing(console: Console, tenant_token: str) -> None:
    requests: list[str] = []
    console.page.on("request", lambda request: request.method == "POST" and requests.append(request.url))
    console.open(tenant_token, "#/subscriptions/new")
    page = console.page
    _fill_webhook(page, "broken filter")
    page.fill("#create-filter", "{data.total: 1")
    page.get_by_role("button", name="Create").click()
    page.locator("#create-result .error", has_text="not valid JSON").wait_for()
    assert requests == [] and page.locator("#create-form").count() == 1


def test_the_delivery_log_shows_attempts_and_resend_adds_a_job(console: Console, tenant: str, tenant_token: str) -> None:
    sub_id = create_webhook(console.base, tenant_token, name="billing")["subscription"]["id"]
    activate(sub_id)
    failed_job(tenant, sub_id)
    console.open(tenant_token, f"#/subscriptions/{sub_id}")
    page = console.page
    log = page.locator("#delivery-log")
    log.locator("tbody tr").first.wait_for()
    assert log.locator("tbody tr").count() == 1 and "1 attempt" in log.inner_text()
    assert page.locator("#health-chart svg rect.bar-bad").count() >= 1
    assert "p50 12 ms" in page.locator("#latency").inner_text()
    assert "http_5xx (HTTP 503)" in page.locator("#last-error").inner_text()
    log.get_by_role("button", name="Resend").click()
    page.locator("#notice", has_text="Resend queued as job").wait_for()
    page.wait_for_function("() => document.querySelectorAll('#delivery-log tbody tr').length === 2")
    assert "pending" in log.inner_text()
    console.shot("subscription")


def test_recover_asks_for_a_confirmation_then_reports_the_recovery(console: Console, tenant: str,
                                                                   tenant_token: str) -> None:
    sub_id = create_webhook(console.base, tenant_token)["subscription"]["id"]
    activate(sub_id)
    failed_job(tenant, sub_id)
    console.open(tenant_token, f"#/subscriptions/{sub_id}")
    page = console.page
    since = (datetime.now(UTC) - timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M")
    page.fill("#recover-since", since)
    page.click("#recover")
    assert page.locator("#recovery").count() == 0
    page.click("#recover-confirm")
    recovery = page.locator("#recovery")
    recovery.wait_for()
    assert "Matched" in recovery.inner_text()


def test_untrusted_fields_and_event_data_render_as_text(console: Console, tenant: str, tenant_token: str) -> None:
    sub_id = create_webhook(console.base, tenant_token, name=XSS_NAME)["subscription"]["id"]
    failed_job(tenant, sub_id, event_type=XSS_TYPE, detail=XSS_DETAIL)
    console.open(tenant_token)
    page = console.page
    page.get_by_role("link", name=XSS_NAME).wait_for()
    page.get_by_role("link", name=XSS_NAME).click()
    page.locator("h1", has_text=XSS_NAME).wait_for()
    page.locator("#delivery-log tbody tr").first.wait_for()
    page.locator("#delivery-log summary").click()
    assert XSS_TYPE in page.locator("#delivery-log").inner_text()
    assert XSS_DETAIL in page.locator("#delivery-log").inner_text()
    assert page.locator("main img").count() == 0 and page.locator("main script").count() == 0
    page.wait_for_timeout(300)  # an onerror handler would have fired by now (and opened a dialog)


def test_an_empty_tenant_sees_the_empty_state(console: Console) -> None:
    console.open(mint_token(tenant="t-empty-console", permissions=ALL_PERMISSIONS))
    console.page.locator(".empty", has_text="No subscriptions yet").wait_for()


def test_a_pull_subscription_shows_its_lag_without_reading_events(console: Console, tenant_token: str) -> None:
    answer = httpx.post(f"{console.base}/v1/subscriptions", json={"sink_kind": "pull", "name": "inbox"},
                        headers={"Authorization": f"Bearer {tenant_token}", "X-Idempotency": str(uuid.uuid4())}, timeout=30)
    assert answer.status_code == 201, answer.text
    reads: list[str] = []
    console.page.on("request", lambda request: "/v1/events" in request.url and reads.append(request.url))
    console.open(tenant_token, f"#/subscriptions/{answer.json()['subscription']['id']}")
    console.page.get_by_role("link", name="Pull cursor and lag").click()
    console.page.locator("h1", has_text="Pull cursor").wait_for()
    assert "Lag behind the newest event" in console.page.locator("main dl").inner_text()
    assert reads == []
