"""Seed 000 durable queues in Chromium (issue 41, N76): the list (paged), one queue created, re-filtered
and deleted through the seed's routes with its validation messages, and tenant isolation and 403."""

from __future__ import annotations

import uuid

import httpx
import pytest

from hub.auth.tokens import mint_token
from hub.consumer.access import consumer_claims
from tests.conftest import ALL_PERMISSIONS
from tests.console.conftest import Console, fresh_tenant
from tests.console.test_states import ONE_LINE_HEADINGS, PHONE

SEED_QUEUES = "/api/v1beta/queues/durable"
GROUPS = '[{"event_type": "orders.created", "filters": [{"filter_type": "eq", "resource_id": "/orders/1"}]}]'


def queue_token(tenant: str) -> str:
    return mint_token(tenant=tenant, permissions=consumer_claims(ALL_PERMISSIONS, None)[0])


@pytest.fixture
def token(tenant: str) -> str:
    return queue_token(tenant)


def make_queue(base: str, token: str, queue_id: str) -> None:
    answer = httpx.post(f"{base}{SEED_QUEUES}", json={"queue_id": queue_id}, timeout=30,
                        headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201, answer.text


def test_a_queue_is_created_refiltered_and_deleted(console: Console, token: str) -> None:
    console.expect_failed_loads(422)
    console.open(token, "#/queues")
    page = console.page
    page.locator(".empty", has_text="No durable queues yet").wait_for()
    page.fill("#queue-id", "bad id!")
    page.get_by_role("button", name="Create the queue").click()
    assert "queue_id must match" in page.locator("#queue-create-result .error").inner_text()
    queue_id = f"orders-{uuid.uuid4().hex[:8]}"
    page.fill("#queue-id", queue_id)
    page.fill("#queue-groups", GROUPS)
    page.get_by_role("button", name="Create the queue").click()
    page.locator("h1", has_text=queue_id).wait_for()
    page.locator("#notice", has_text=f"Queue {queue_id} created.").wait_for()
    facts = page.locator("main dl").inner_text()
    assert "orders.created: eq /orders/1" in facts and "Depth (ready)\n0" in facts and "Consumers\n0" in facts
    console.shot("queue")

    page.fill("#queue-new-groups", "[]")
    page.get_by_role("button", name="Replace the filters").click()
    page.locator("#notice", has_text="Filters replaced").wait_for()
    assert "every event" in page.locator("main dl").inner_text()
    page.click("#queue-delete")
    assert page.evaluate("document.activeElement.id") == "queue-delete-confirm"
    page.keyboard.press("Enter")
    page.locator("h1", has_text="Durable queues").wait_for()
    page.locator("#notice", has_text=f"Queue {queue_id} deleted.").wait_for()
    page.locator(".empty", has_text="No durable queues yet").wait_for()


def test_the_list_is_paged_and_shows_each_queues_state(console: Console, token: str) -> None:
    prefix = f"q{uuid.uuid4().hex[:8]}"
    for n in range(21):
        make_queue(console.base, token, f"{prefix}-{n:02d}")
    console.open(token, "#/queues")
    page = console.page
    rows = page.locator("table tbody tr")
    rows.first.wait_for()
    assert rows.count() == 20 and "not while attached" not in rows.first.inner_text()
    assert [cell.strip() for cell in rows.first.inner_text().split("\t")][:5] == [f"{prefix}-00", "every event", "0", "0", "0"]
    console.shot("queues")
    page.set_viewport_size(PHONE)  # the table scrolls sideways inside its wrapper; the page does not
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(ONE_LINE_HEADINGS) == []
    page.click("#next-page")
    page.wait_for_function("() => document.querySelectorAll('table tbody tr').length === 1")
    assert f"{prefix}-20" in rows.first.inner_text()


def test_another_tenants_queue_is_the_404_page_and_a_missing_permission_the_403(console: Console, token: str) -> None:
    queue_id = f"mine-{uuid.uuid4().hex[:8]}"
    make_queue(console.base, token, queue_id)
    console.expect_failed_loads(404)
    console.expect_failed_loads(403)
    console.open(queue_token(fresh_tenant()), f"#/queues/{queue_id}")
    console.page.locator("section.error[data-status='404']").wait_for()
    console.open(mint_token(tenant=fresh_tenant(), permissions=ALL_PERMISSIONS), "#/queues")
    assert "consume-durable-queues" in console.page.locator("section.error[data-status='403']").inner_text()
