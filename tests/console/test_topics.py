"""Seed 003 topics in Chromium (issue 41, N76): a topic's history paged to its end with `until`, a purge
whose confirmation states the count it then deletes, a Main Topic's retention window, the live view over
the WebSocket, and another domain's token seeing nothing of it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest

from hub.auth.tokens import mint_token
from hub.broker.projection import BROKER_SOURCE
from hub.kafka import ensure_topics
from tests.broker.conftest import ALL_FLAGS
from tests.conftest import ALL_PERMISSIONS
from tests.console.conftest import Console, console_on, fresh_tenant
from tests.publisher.conftest import hub_env
from devkit.live import live_api
from devkit.processes import hub_process
from devkit.scratchdb import migrated_scratch_database


@pytest.fixture(scope="module")
def broker_base() -> Iterator[str]:
    """``hub api`` and ``hub ingest`` (a publish answers once ingest stored the event) on a scratch
    database and a topic prefix of their own."""
    prefix = f"b{uuid.uuid4().hex[:10]}."
    ensure_topics([f"{prefix}{BROKER_SOURCE}", f"{prefix}dlq", f"{prefix}streaming-hub"], partitions=1)
    with ExitStack() as stack:
        env = hub_env(stack.enter_context(migrated_scratch_database()), prefix)
        stack.enter_context(hub_process("ingest", env))
        yield stack.enter_context(live_api(env))


@pytest.fixture
def console(browser, broker_base: str) -> Iterator[Console]:  # noqa: ANN001
    with console_on(browser, broker_base) as current:
        yield current


def token_of(tenant: str) -> str:
    return mint_token(tenant=tenant, permissions=ALL_PERMISSIONS, event_broker=ALL_FLAGS)


def publish(base: str, tenant: str, token: str, topic: str, event_type: str, n: int) -> None:
    answer = httpx.post(f"{base}/api/{tenant}/event/data/{topic}", json={"type": event_type, "data": {"n": n}},
                        headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert answer.status_code == 201, answer.text


def history_types(base: str, tenant: str, token: str, topic: str) -> list[str]:
    answer = httpx.get(f"{base}/api/{tenant}/event/data/{topic}", params={"limit": 1000},
                       headers={"Authorization": f"Bearer {token}"}, timeout=30)
    return [item["type"] for item in answer.json()["data"]]


def test_history_pages_to_its_end_purge_states_its_count_and_live_shows_a_new_event(console: Console,
                                                                                      tenant: str) -> None:
    token, main = token_of(tenant), f"orders{uuid.uuid4().hex[:6]}"
    for n in range(55):
        publish(console.base, tenant, token, f"{main}:{n % 3}", "order.refunded" if n % 5 == 0 else "order.created", n)
    console.open(token, f"#/topics/{main}")
    page = console.page
    rows = page.locator("#history tbody tr")
    rows.first.wait_for()
    assert rows.count() == 50 and '"n": 54' in page.locator("#history tbody tr details pre").first.inner_html()
    page.click("#older")
    page.wait_for_function("() => document.querySelectorAll('#history tbody tr').length === 5")
    page.click("#older")
    page.locator("#history .empty", has_text="end of the history").wait_for()

    page.fill("#purge-type", "order.refunded")
    page.click("#purge")
    question = page.locator("#purge-question")
    question.wait_for()
    assert question.inner_text().startswith(f"11 events of {main} and its sub-topics match")
    assert page.evaluate("document.activeElement.id") == "purge-confirm"
    page.keyboard.press("Enter")
    page.locator("#purged", has_text="Deleted 11 events.").wait_for()
    types = history_types(console.base, tenant, token, main)
    assert len(types) == 44 and "order.refunded" not in types

    page.fill("#retention-max", "100")
    page.fill("#retention-ttl", "3600")
    page.get_by_role("button", name="Save the window").click()
    page.locator("#retention-now", has_text="100 events, 3600 s").wait_for()

    page.click("#live-toggle")
    page.locator("#live-status", has_text="Watching").wait_for()
    publish(console.base, tenant, token, f"{main}:9", "order.shipped", 99)
    page.locator("#live-events li", has_text="order.shipped").wait_for()
    assert '{"n":99}' in page.locator("#live-events li").first.inner_text()
    console.shot("topic")
    console.goto("#/topics")
    page.get_by_role("link", name=main, exact=True).first.wait_for()
    subs = page.locator(f"#topic-tree li[data-main='{main}'] li")
    assert subs.count() == 4 and "15 events" in subs.first.inner_text()  # 55 events: 19, 18, 18 less 11 purged
    console.shot("topics")


def test_another_domain_sees_nothing_and_a_token_without_flags_gets_the_403_page(console: Console, tenant: str) -> None:
    token, main = token_of(tenant), f"private{uuid.uuid4().hex[:6]}"
    publish(console.base, tenant, token, main, "secret.made", 1)
    console.open(token_of(fresh_tenant()), f"#/topics/{main}")
    console.page.locator("#history .empty", has_text="No events retained").wait_for()
    console.goto("#/topics")
    console.page.locator("#topic-tree, section .empty").first.wait_for()
    assert main not in console.page.locator("main").inner_text()
    console.expect_failed_loads(403)
    console.open(mint_token(tenant=fresh_tenant(), permissions=ALL_PERMISSIONS), f"#/topics/{main}")
    console.page.locator("section.error[data-status='403']").wait_for()


def test_the_live_view_reconnects_with_since_and_misses_nothing(console: Console, tenant: str) -> None:
    """The socket drops (closed by a routed WebSocket, as a proxy would); the page reconnects with `since` =
    the last ts shown, so an event published while it was away is shown once, from history."""
    token, main = token_of(tenant), f"live{uuid.uuid4().hex[:6]}"
    urls: list[str] = []
    sockets: list[object] = []

    def route(ws) -> None:  # noqa: ANN001
        urls.append(ws.url)
        ws.connect_to_server()
        sockets.append(ws)

    console.page.route_web_socket("**/event/ws*", route)
    console.open(token, f"#/topics/{main}")
    page = console.page
    page.click("#live-toggle")
    page.locator("#live-status", has_text="Watching").wait_for()
    publish(console.base, tenant, token, main, "first.seen", 1)
    page.locator("#live-events li", has_text="first.seen").wait_for()
    sockets[0].close(code=1012, reason="restarting")
    page.locator("#live-status", has_text="reconnecting").wait_for()
    publish(console.base, tenant, token, main, "while.away", 2)
    page.locator("#live-events li", has_text="while.away").wait_for(timeout=20_000)
    assert len(urls) == 2 and "since=" not in urls[0] and "since=" in urls[1]
    assert page.locator("#live-events li").count() == 2  # first.seen is not shown twice
