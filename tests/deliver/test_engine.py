"""The real delivery engine against the real database and real HTTPS receivers.

Rules: R-X-STATE-01 (only enabled and active subscriptions receive), R-X-SEC-07 (dual signature),
and the hub's outcome, retry and held-job rules (every job ends in exactly one terminal outcome).
"""

from __future__ import annotations

import asyncio
import json
import time

from standardwebhooks import Webhook

from hub.secrets import mint_signing_secret
from tests.deliver.conftest import (
    all_terminal, attempts, drive, hook_url, insert_events, insert_subscription, job_states, sql,
)
from devkit.receiver import Receiver, Reply


def test_delivers_signed_cloudevents_with_data_as_stored(deliver_db: str, scripted: Receiver, tenant: str) -> None:
    """Delivered jobs: one `delivered` attempt each, the body a structured CloudEvent whose data is the stored text."""
    current, previous = mint_signing_secret(), mint_signing_secret()
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted), secrets=(current, previous))
    seqs = insert_events(deliver_db, tenant, [sub], 3, data=lambda i: f'{{"n": {i},  "amount": 1.50}}')
    drive(all_terminal(deliver_db, tenant))
    assert job_states(deliver_db, tenant) == {"delivered": 3}
    rows = attempts(deliver_db, tenant)
    assert [(r["outcome"], r["status_code"], r["error_class"], r["attempt_no"]) for r in rows] == \
        [("delivered", 200, "", 1)] * 3
    assert sorted(r["event_seq"] for r in rows) == seqs
    for request in scripted.received:
        for secret in (current, previous):
            Webhook(f"whsec_{secret}").verify(request.body, request.headers)
        assert b'"data":{"n": ' in request.body and b',  "amount": 1.50}' in request.body  # not re-encoded
        event = json.loads(request.body)
        assert event["tenantid"] == tenant and event["specversion"] == "1.0"
    assert {r.headers["webhook-id"] for r in scripted.received} == {str(r["job_id"]) for r in rows}


def test_batch_bookkeeping_is_one_transaction(deliver_db: str, scripted: Receiver, tenant: str) -> None:
    """Every attempt row and job update of one claimed batch carries the same transaction id."""
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted))
    insert_events(deliver_db, tenant, [sub], 20)
    drive(all_terminal(deliver_db, tenant))
    attempt_xids = {r["xmin"] for r in attempts(deliver_db, tenant)}
    job_xids = {x for (x,) in sql(deliver_db, "SELECT xmin::text FROM delivery_jobs WHERE tenant_id = %s", (tenant,))}
    assert len(attempt_xids) == 1 and attempt_xids == job_xids


def test_5xx_then_success(deliver_db: str, scripted: Receiver, tenant: str) -> None:
    scripted.actions.extend([Reply(503), Reply(500)])  # type: ignore[attr-defined]
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted))
    insert_events(deliver_db, tenant, [sub], 1)
    drive(all_terminal(deliver_db, tenant))
    rows = attempts(deliver_db, tenant)
    assert [(r["outcome"], r["error_class"], r["attempt_no"]) for r in rows] == [
        ("failed", "http_5xx", 1), ("failed", "http_5xx", 2), ("delivered", "", 3)]
    assert len({h.headers["webhook-id"] for h in scripted.received}) == 1
    health = sql(deliver_db, "SELECT failing_since, consecutive_failures, last_success_at FROM subscription_health "
                             "WHERE subscription_id = %s", (sub,))
    assert health[0][0] is None and health[0][1] == 0 and health[0][2] is not None  # success cleared it


def test_spent_budget_dead_letters(deliver_db: str, scripted: Receiver, tenant: str) -> None:
    scripted.actions.extend([Reply(500)] * 5)  # type: ignore[attr-defined]
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted))
    insert_events(deliver_db, tenant, [sub], 1)
    drive(all_terminal(deliver_db, tenant))
    rows = attempts(deliver_db, tenant)
    assert [r["outcome"] for r in rows] == ["failed", "failed", "dead_lettered"]  # 1 try + a 2-step ladder
    assert job_states(deliver_db, tenant) == {"dead_lettered": 1}


def test_410_dead_letters_at_once(deliver_db: str, scripted: Receiver, tenant: str) -> None:
    scripted.actions.append(Reply(410))  # type: ignore[attr-defined]
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted))
    insert_events(deliver_db, tenant, [sub], 1)
    drive(all_terminal(deliver_db, tenant))
    assert [(r["outcome"], r["error_class"], r["status_code"]) for r in attempts(deliver_db, tenant)] == [
        ("dead_lettered", "http_410", 410)]


def test_retry_after_is_honoured_within_step_and_twice_step(deliver_db: str, scripted: Receiver, tenant: str,
                                                             override_settings) -> None:  # noqa: ANN001
    """Retry-After 15 with a 10 s step waits 15 s; 100 is capped at 2 × step = 20 s."""
    override_settings(deliver_retry_ladder_seconds="10")
    scripted.actions.extend([Reply(429, {"Retry-After": "15"}), Reply(429, {"Retry-After": "100"})])  # type: ignore[attr-defined]
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted))
    insert_events(deliver_db, tenant, [sub], 2)
    drive(lambda: len(attempts(deliver_db, tenant)) == 2)
    waits = sorted(x for (x,) in sql(deliver_db, """
        SELECT EXTRACT(EPOCH FROM j.next_attempt_at - a.attempted_at)::float - a.latency_ms / 1000.0
          FROM delivery_jobs j JOIN delivery_attempts a ON a.job_id = j.id WHERE j.tenant_id = %s""", (tenant,)))
    assert 14.5 <= waits[0] <= 15.5 and 19.5 <= waits[1] <= 20.5, waits
    assert job_states(deliver_db, tenant) == {"retrying": 2}


def test_held_jobs_wait_for_activation(deliver_db: str, scripted: Receiver, tenant: str,
                                       override_settings) -> None:  # noqa: ANN001
    """A pending_verification subscription gets no attempt and spends no budget; once active, its jobs flow."""
    override_settings(deliver_retry_ladder_seconds="5,5")
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted), state="pending_verification")
    insert_events(deliver_db, tenant, [sub], 2)
    deadline = time.monotonic() + 1.0
    drive(lambda: time.monotonic() > deadline)
    assert attempts(deliver_db, tenant) == [] and scripted.received == []
    assert sql(deliver_db, "SELECT max(attempts) FROM delivery_jobs WHERE tenant_id = %s", (tenant,)) == [(0,)]
    sql(deliver_db, "UPDATE subscriptions SET verification_state = 'active' WHERE id = %s", (sub,))
    drive(all_terminal(deliver_db, tenant))
    assert job_states(deliver_db, tenant) == {"delivered": 2}


def test_held_past_the_horizon_ends_disabled(deliver_db: str, scripted: Receiver, tenant: str) -> None:
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted), state="degraded")
    insert_events(deliver_db, tenant, [sub], 1)
    sql(deliver_db, "UPDATE delivery_jobs SET created_at = now() - interval '1 minute' WHERE tenant_id = %s", (tenant,))
    drive(all_terminal(deliver_db, tenant))
    [row] = attempts(deliver_db, tenant)
    assert (row["outcome"], row["attempt_no"], row["status_code"]) == ("disabled", 0, 0)
    assert scripted.received == []


def test_disabled_and_deleted_subscriptions_end_disabled(deliver_db: str, scripted: Receiver, tenant: str) -> None:
    """R-X-STATE-01: delivery needs enabled and active; a disabled or deleted subscription's jobs end `disabled`."""
    off, _ = insert_subscription(deliver_db, tenant, hook_url(scripted), enabled=False)
    gone, _ = insert_subscription(deliver_db, tenant, hook_url(scripted), deleted=True)
    insert_events(deliver_db, tenant, [off, gone], 2)
    drive(all_terminal(deliver_db, tenant))
    assert job_states(deliver_db, tenant) == {"disabled": 4}
    assert {r["outcome"] for r in attempts(deliver_db, tenant)} == {"disabled"}
    assert scripted.received == []


def test_kind_without_a_sink_ends_with_a_recorded_outcome(deliver_db: str, scripted: Receiver, tenant: str,
                                                          monkeypatch) -> None:  # noqa: ANN001
    from hub.providers.registry import provider_for

    monkeypatch.setattr(type(provider_for("sqs")), "sink", None)  # a build without the SQS sink
    sub, _ = insert_subscription(deliver_db, tenant, "https://sqs.example/q", sink_kind="sqs")
    insert_events(deliver_db, tenant, [sub], 1)
    drive(all_terminal(deliver_db, tenant))
    [row] = attempts(deliver_db, tenant)
    assert (row["outcome"], row["error_class"]) == ("dead_lettered", "internal")
    assert row["detail"] == "no sink delivers the kind 'sqs'"


def test_expired_lease_returns_a_dead_workers_jobs(deliver_db: str, scripted: Receiver, tenant: str,
                                                    override_settings) -> None:  # noqa: ANN001
    """Jobs claimed by a worker that never records come back by themselves when the lease ends."""
    from workers.deliver import store
    from workers.runtime import async_connector
    connect = async_connector(application_name="hub-deliver")

    override_settings(deliver_lease_seconds="1.5")
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted))
    insert_events(deliver_db, tenant, [sub], 3)

    async def claim_and_vanish() -> int:
        conn = await connect()
        try:
            return len((await store.claim(conn, limit=100, lease_seconds=1.5)).jobs)
        finally:
            await conn.close()

    assert asyncio.run(claim_and_vanish()) >= 3
    claimed_at = time.monotonic()
    drive(all_terminal(deliver_db, tenant))
    assert time.monotonic() - claimed_at >= 1.0  # nothing was due again before the lease ran out
    assert job_states(deliver_db, tenant) == {"delivered": 3}
    assert len(attempts(deliver_db, tenant)) == 3


def test_metrics_count_attempts_by_kind_and_outcome_only(deliver_db: str, scripted: Receiver, tenant: str) -> None:
    """Attempts by sink kind and outcome, latency by sink kind; never a tenant or subscription label."""
    from prometheus_client import REGISTRY

    def delivered() -> float:
        return REGISTRY.get_sample_value("streaming_hub_delivery_attempts_total",
                                         {"sink_kind": "webhook", "outcome": "delivered"}) or 0.0

    before = delivered()
    sub, _ = insert_subscription(deliver_db, tenant, hook_url(scripted))
    insert_events(deliver_db, tenant, [sub], 4)
    drive(all_terminal(deliver_db, tenant))
    assert delivered() - before == 4
    for metric in REGISTRY.collect():
        if metric.name.startswith("streaming_hub_delivery"):
            for sample in metric.samples:
                assert not {"tenant", "tenant_id", "subscription", "subscription_id"} & set(sample.labels)
                assert tenant not in sample.labels.values() and str(sub) not in sample.labels.values()
