"""The delivery log shows a job waiting for its key's turn as ``waiting`` (and filters on it); a resend of
an ordered subscription's event is an explicit out-of-order send (N77)."""

from __future__ import annotations

import psycopg

from hub.db import libpq_url
from tests.blockedkeys.conftest import block, enqueue_key, ordered_webhook
from tests.dashboard.conftest import coverage, webhook  # noqa: F401 (coverage: a fixture)
from tests.subscriptions.conftest import new_key, problem


def deliveries(api, sub_id, **params):  # noqa: ANN001, ANN201
    return api.client.get(f"/v1/subscriptions/{sub_id}/deliveries", params=params, headers=api.headers(None))


def test_waiting_jobs_show_as_such_and_the_filter_takes_the_state(api, tenant):
    sub = ordered_webhook(api)
    key = enqueue_key(tenant, sub, "k", 3)
    waiting = deliveries(api, sub, state="waiting")
    assert waiting.status_code == 200, waiting.text
    shown = waiting.json()["deliveries"]
    assert {job["id"] for job in shown} == {str(job) for job in key.jobs[1:]}
    for job in shown:
        assert job["state"] == "waiting" and "next_attempt_at" not in job and "outcome" not in job
        assert job["attempts"] == []
    both = deliveries(api, sub, state="pending,waiting").json()["deliveries"]
    assert {job["id"] for job in both} == {str(job) for job in key.jobs}
    problem(deliveries(api, sub, state="queued"), 422, "validation_error")


def test_a_resend_of_an_ordered_subscriptions_event_says_it_is_out_of_order(api, tenant):
    sub = ordered_webhook(api)
    key = enqueue_key(tenant, sub, "k", 2)
    head = block(tenant, sub, "k")
    idem = new_key()
    path = f"/v1/subscriptions/{sub}/deliveries/{head}/resend"
    sent = api.client.post(path, headers=api.headers(idem))
    assert sent.status_code == 201, sent.text
    assert sent.headers["x-delivery-order"] == "out-of-order"
    replay = api.client.post(path, headers=api.headers(idem))
    assert replay.headers["x-idempotency-replayed"] == "true" and replay.headers["x-delivery-order"] == "out-of-order"
    with psycopg.connect(libpq_url()) as conn:
        [(ordering_key, state)] = conn.execute("SELECT ordering_key, state FROM delivery_jobs WHERE id = %s",
                                               (sent.json()["delivery"]["id"],)).fetchall()
        blocked = conn.execute("SELECT blocked_at IS NOT NULL FROM ordered_keys WHERE subscription_id = %s"
                               " AND ordering_key = 'k'", (sub,)).fetchone()
    assert (ordering_key, state) == (None, "pending"), "an unordered job, due now"
    assert blocked == (True,), "the key stays blocked: a resend is no resume"
    assert key.jobs[0] == head


def test_an_unordered_subscriptions_resend_carries_no_mark(api, tenant):
    from devkit.deliveries import add_event, add_job, now

    sub = webhook(api)
    job = add_job(tenant, sub, event_seq=add_event(tenant, received_at=now()), created_at=now(), state="dead_lettered")
    sent = api.client.post(f"/v1/subscriptions/{sub}/deliveries/{job}/resend", headers=api.headers())
    assert sent.status_code == 201 and "x-delivery-order" not in sent.headers


def test_the_dashboard_backlog_counts_due_jobs_only_and_jobs_created_counts_waiting_ones(api, tenant, coverage):
    """R-getDashboard-17: pending_jobs counts pending or retrying jobs; a waiting job is not due (N77)."""
    sub = ordered_webhook(api)
    enqueue_key(tenant, sub, "k", 3)
    body = api.client.get("/v1/dashboard", headers=api.headers(None)).json()
    assert body["current_state"]["push"]["pending_jobs"] == 1, "the head only"
    assert body["selected_period"]["push"]["delivery_jobs_created"] == 3
