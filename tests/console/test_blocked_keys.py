"""An ordered subscription's page in Chromium (N77): its ordering option, its blocked keys with Retry and
Skip (Skip asks first), the waiting jobs in the delivery log, and a resend that says it is out of order."""

from __future__ import annotations

import uuid

import httpx

from tests.blockedkeys.conftest import BLOCK, block, enqueue_key, head_of, job_states
from tests.console.api import activate, create_webhook, headers
from tests.console.conftest import Console


def ordered_webhook(base: str, token: str) -> str:
    sub_id = create_webhook(base, token)["subscription"]["id"]
    activate(sub_id)
    answer = httpx.put(f"{base}/v1/subscriptions/{sub_id}/delivery-options", json={"ordering": BLOCK},
                       headers=headers(token), timeout=30)
    assert answer.status_code == 200, answer.text
    return sub_id


def test_blocked_keys_are_listed_and_retry_resumes_one(console: Console, tenant: str, tenant_token: str) -> None:
    sub_id = ordered_webhook(console.base, tenant_token)
    key = enqueue_key(tenant, sub_id, "order-42", 3)
    block(tenant, sub_id, "order-42")
    console.open(tenant_token, f"#/subscriptions/{sub_id}")
    page = console.page
    rows = page.locator("#blocked-keys tbody tr")
    rows.first.wait_for()
    text = rows.first.inner_text()
    assert rows.count() == 1 and "order-42" in text and "http_4xx (HTTP 503)" in text and f"#{key.seqs[0]}" in text
    assert "blocks its key" in page.locator("#delivery-options").inner_text()
    console.shot("blocked-keys")
    rows.first.get_by_role("button", name="Retry").click()
    page.locator("#notice", has_text="its head is retried").wait_for()
    page.locator("#blocked-keys .empty").wait_for()
    head = head_of(sub_id, "order-42")
    assert head not in key.jobs and job_states(sub_id)[head] == "pending"


def test_skip_asks_first_then_moves_the_key_on(console: Console, tenant: str, tenant_token: str) -> None:
    sub_id = ordered_webhook(console.base, tenant_token)
    key = enqueue_key(tenant, sub_id, "k", 2)
    block(tenant, sub_id, "k")
    console.open(tenant_token, f"#/subscriptions/{sub_id}")
    page = console.page
    row = page.locator("#blocked-keys tbody tr").first
    row.wait_for()
    row.get_by_role("button", name="Skip").click()
    assert job_states(sub_id)[key.jobs[1]] == "waiting", "nothing sent before the confirmation"
    row.get_by_role("button", name="Confirm skip").click()
    page.locator("#notice", has_text="skipped").wait_for()
    page.locator("#blocked-keys .empty").wait_for()
    assert head_of(sub_id, "k") == key.jobs[1] and job_states(sub_id)[key.jobs[1]] == "pending"


def test_waiting_jobs_show_in_the_log_and_a_resend_says_it_is_out_of_order(console: Console, tenant: str,
                                                                           tenant_token: str) -> None:
    sub_id = ordered_webhook(console.base, tenant_token)
    enqueue_key(tenant, sub_id, f"k-{uuid.uuid4().hex[:6]}", 2)
    console.open(tenant_token, f"#/subscriptions/{sub_id}")
    page = console.page
    log = page.locator("#delivery-log")
    log.locator("tbody tr").first.wait_for()
    page.select_option("select[name=state]", "waiting")
    page.wait_for_function("() => document.querySelectorAll('#delivery-log tbody tr').length === 1")
    assert "waiting" in log.inner_text()
    log.get_by_role("button", name="Resend").click()
    page.locator("#notice", has_text="out of its key's order").wait_for()
