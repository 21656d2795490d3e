"""The issue 41 pages in the states every page has (N76): 375 px without sideways scrolling, a 5xx and
a 429 answer (stubbed: the hub's own limits and faults are out of a test's reach), and the keyboard."""

from __future__ import annotations

import uuid

import httpx

from hub.auth.tokens import mint_token
from hub.consumer.access import TRIAGE, consumer_claims
from tests.broker.conftest import ALL_FLAGS
from tests.conftest import ALL_PERMISSIONS
from tests.console.conftest import Console
from tests.console.test_states import ONE_LINE_HEADINGS, PHONE, focus_until

PROBLEM = {"Content-Type": "application/problem+json"}


def everything(tenant: str) -> str:
    return mint_token(tenant=tenant, permissions=[*consumer_claims(ALL_PERMISSIONS, None)[0], TRIAGE],
                      event_broker=ALL_FLAGS)


def test_the_new_pages_fit_a_phone(console: Console, tenant: str) -> None:
    token = everything(tenant)
    queue_id = f"phone-{uuid.uuid4().hex[:8]}"
    httpx.post(f"{console.base}/api/v1beta/queues/durable", json={"queue_id": queue_id}, timeout=30,
               headers={"Authorization": f"Bearer {token}"}).raise_for_status()
    console.page.set_viewport_size(PHONE)
    console.open(token)
    for route in ("#/subscriptions/new-queue", "#/queues", f"#/queues/{queue_id}", "#/ops/dead-letters", "#/topics",
                  "#/topics/orders"):
        console.goto(route)
        console.page.locator("main h1").wait_for()
        console.page.wait_for_load_state("networkidle")
        width = console.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{route}: {width}px wide"
        assert console.page.evaluate(ONE_LINE_HEADINGS) == [], route


def test_a_5xx_and_a_429_on_the_new_routes(console: Console, tenant: str) -> None:
    console.expect_failed_loads(503)
    console.expect_failed_loads(429)
    console.page.route("**/v1/durable-queues?*", lambda route: route.fulfill(
        status=503, headers={**PROBLEM, "Retry-After": "1"},
        body='{"title": "Service Unavailable", "status": 503, "code": "broker_unavailable", "detail": "the message broker is unavailable; retry later"}'))
    calls: list[int] = []

    def once_limited(route) -> None:  # noqa: ANN001
        calls.append(1)
        if len(calls) == 1:
            route.fulfill(status=429, headers={**PROBLEM, "Retry-After": "1"},
                          body='{"title": "Too Many Requests", "status": 429, "code": "rate_limited"}')
        else:
            route.continue_()

    console.page.route("**/admin/consumer/dead-letters?*", once_limited)
    console.open(everything(tenant), "#/queues")
    error = console.page.locator("section.error[data-status='503']")
    assert "The hub failed (503)" in error.inner_text() and "broker_unavailable" in error.inner_text()
    console.goto("#/ops/dead-letters")
    console.page.locator("#notice", has_text="retrying in 1 s").wait_for()
    console.page.locator("h1", has_text="Dead-letter triage").wait_for()
    assert len(calls) == 2


def test_the_queue_form_works_by_keyboard(console: Console, tenant: str) -> None:
    console.open(everything(tenant), "#/subscriptions/new-queue")
    page = console.page
    page.focus("#queue-kind")
    for _ in range(5):  # down the kinds, in the provider registry's order (N97), to EventBridge
        if page.locator("label[for=queue-endpoint]").inner_text() == "Event bus name":
            break
        page.keyboard.press("ArrowDown")
    assert page.locator("label[for=queue-endpoint]").inner_text() == "Event bus name"
    page.keyboard.press("Tab")
    page.keyboard.type("bus by keyboard")
    page.keyboard.press("Tab")
    page.keyboard.type(f"bus-{uuid.uuid4().hex[:6]}")
    assert focus_until(console, "Create")
    page.keyboard.press("Enter")
    page.locator("h1", has_text="Connect bus by keyboard").wait_for()
    page.locator("#quick-create").wait_for()  # an EventBridge subscription gets its setup artifacts too
    assert "param_DestinationKind=eventbridge" in page.locator("#quick-create").get_attribute("href")
