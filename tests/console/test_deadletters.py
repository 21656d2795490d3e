"""Seed 000 dead-letter triage in Chromium (issue 41, N76): the operator browses the dead-letter queue,
replays after a confirmation and discards several at once, each row showing the outcome the triage
reports (REPLAYED, ORIGIN_QUEUE_DELETED, DISCARDED); a tenant without the permission gets the 403 page."""

from __future__ import annotations

import uuid

import httpx

from hub.auth.tokens import mint_token
from hub.consumer.access import TRIAGE, consumer_claims
from tests.conftest import ALL_PERMISSIONS
from tests.console.conftest import Console, fresh_tenant
from devkit.deadletters import dead_letter, take

SEED_QUEUES = "/api/v1beta/queues/durable"


def make_queue(base: str, token: str) -> str:
    queue_id = f"dl-{uuid.uuid4().hex[:10]}"
    answer = httpx.post(f"{base}{SEED_QUEUES}", json={"queue_id": queue_id}, timeout=30,
                        headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201, answer.text
    return queue_id


def outcome(console: Console, key: str) -> str:
    cell = console.page.locator(f".outcome[data-id='{key}']")
    console.page.wait_for_function("key => document.querySelector(`.outcome[data-id='${key}']`).textContent !== '—'",
                                   arg=key)
    return cell.inner_text()


def test_the_operator_replays_and_discards_several_at_once(console: Console, tenant: str) -> None:
    token = mint_token(tenant=tenant, permissions=[*consumer_claims(ALL_PERMISSIONS, None)[0], TRIAGE], operator=True)
    origin, gone = make_queue(console.base, token), make_queue(console.base, token)
    replayed, discarded = dead_letter(origin), dead_letter(origin, event_type="<b>orders.refunded</b>")
    orphan = dead_letter(gone)
    httpx.delete(f"{console.base}{SEED_QUEUES}", params={"queue_id": gone}, timeout=30,
                 headers={"Authorization": f"Bearer {token}"}).raise_for_status()
    console.open(token, "#/ops/dead-letters")
    page = console.page
    page.locator(f"input[value='{replayed}']").wait_for()
    assert "<b>orders.refunded</b>" in page.locator("tr", has=page.locator(f"input[value='{discarded}']")).inner_text()
    assert page.locator("main b").count() == 0
    page.check(f"input[value='{replayed}']")
    page.check(f"input[value='{orphan}']")
    page.click("#triage-replay")
    assert page.evaluate("document.activeElement.id") == "triage-replay-confirm"
    assert "Replay 2 events" in page.locator("#triage-result").inner_text()
    console.shot("dead-letters")
    page.keyboard.press("Enter")
    assert outcome(console, replayed).startswith("REPLAYED")
    assert outcome(console, orphan).startswith("ORIGIN_QUEUE_DELETED") and gone in outcome(console, orphan)
    assert take(origin) is not None  # the replayed event is back in its queue for a consumer
    page.uncheck(f"input[value='{replayed}']")
    page.check(f"input[value='{discarded}']")
    page.click("#triage-discard")
    page.wait_for_function("key => document.querySelector(`.outcome[data-id='${key}']`).textContent.startsWith('DISCARDED')",
                           arg=discarded)
    assert outcome(console, orphan).startswith("DISCARDED")
    console.shot("dead-letters-outcomes")


def test_a_tenant_without_the_triage_permission_gets_the_403_page(console: Console) -> None:
    console.expect_failed_loads(403)
    console.open(mint_token(tenant=fresh_tenant(), permissions=consumer_claims(ALL_PERMISSIONS, None)[0]),
                 "#/ops/dead-letters")
    assert "inspect-and-replay-all-dlq" in console.page.locator("section.error[data-status='403']").inner_text()
