"""Recover's range and its ``failed`` jobs (N49, N50): a retry brought forward, not a second job."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import text

from hub.db import get_engine
from hub.sinks.vocabulary import Outcome
from tests.deliverylog.conftest import seed_job
from devkit.deliveries import now
from tests.subscriptions.conftest import Api


def recover(api: Api, sub: str, body: object):  # noqa: ANN201
    return api.client.post(f"/v1/subscriptions/{sub}/recover", json=body, headers=api.headers())


def test_a_retrying_job_is_brought_forward_and_the_range_is_kept(api: Api, sub: str, tenant: str) -> None:
    retrying = seed_job(tenant, sub, at=now() - timedelta(hours=2), outcomes=(Outcome.failed,))
    outside = seed_job(tenant, sub, at=now() - timedelta(days=3), outcomes=(Outcome.dead_lettered,))
    seed_job(tenant, sub, at=now() - timedelta(hours=1), outcomes=(Outcome.delivered,))
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE delivery_jobs SET next_attempt_at = now() + interval '5 hours'"
                                " WHERE id = :id"), {"id": retrying["id"]})
    accepted = recover(api, sub, {"since": (now() - timedelta(days=1)).isoformat(), "outcomes": ["failed"]})
    assert accepted.status_code == 202, accepted.text
    progress = api.client.get(accepted.headers["location"], headers=api.headers(None)).json()["recovery"]
    assert (progress["matched"], progress["requeued"], progress["state"]) == (1, 1, "completed")
    with get_engine().connect() as connection:
        due, jobs = connection.execute(text(
            "SELECT bool_and(next_attempt_at <= now() AND priority = 1) FILTER (WHERE id = :id), count(*)"
            " FROM delivery_jobs WHERE subscription_id = :sub"), {"id": retrying["id"], "sub": sub}).one()
    assert due and jobs == 3  # no new job, brought forward at the bulk priority (N58); the one outside left alone
    assert outside["id"] not in accepted.text


def test_recover_body_is_checked(api: Api, sub: str) -> None:
    since = (now() - timedelta(days=1)).isoformat()
    for body in ({}, {"since": "yesterday"}, {"since": "2026-01-01T00:00:00"}, {"since": since, "outcomes": ["delivered"]},
                 {"since": since, "outcomes": []}, {"since": since, "extra": 1},
                 {"since": since, "until": (now() - timedelta(days=2)).isoformat()}):
        answer = recover(api, sub, body)
        assert answer.status_code == 422 and answer.json()["code"] == "validation_error", body


def test_an_ordered_subscriptions_recovery_keeps_each_keys_event_order(api: Api, sub: str, tenant: str) -> None:
    """N78: the recovered jobs of keyed events go through the ordered enqueue in event order (the range is
    walked by job id, here the reverse of event order); a key-less one is a plain job; a resend has no key."""
    seeded = [seed_job(tenant, sub, at=now() - timedelta(hours=hours), outcomes=(Outcome.dead_lettered,))
              for hours in (1, 2, 3)]
    keyless = seed_job(tenant, sub, at=now() - timedelta(hours=4), outcomes=(Outcome.dead_lettered,))
    with get_engine().begin() as connection:
        connection.execute(text("""UPDATE subscriptions SET ordering = '{"key": "partitionkey", "on_dead_letter":
                                   "skip"}' WHERE id = :sub"""), {"sub": sub})
        connection.execute(text("UPDATE delivery_jobs SET ordering_key = 'k' WHERE id = ANY(:ids)"),
                           {"ids": [job["id"] for job in seeded]})
    accepted = recover(api, sub, {"since": (now() - timedelta(days=1)).isoformat()})
    assert accepted.status_code == 202, accepted.text
    with get_engine().connect() as connection:
        recovered = connection.execute(text(
            "SELECT event_seq, ordering_key, state, priority FROM delivery_jobs WHERE subscription_id = :sub"
            " AND attempts = 0 AND state IN ('pending', 'waiting') ORDER BY event_seq"), {"sub": sub}).all()
    first, second, third = sorted(job["seq"] for job in seeded)
    assert [tuple(row) for row in recovered] == [(first, "k", "pending", 1), (second, "k", "waiting", 1),
                                                 (third, "k", "waiting", 1), (keyless["seq"], None, "pending", 1)]
    resent = api.client.post(f"/v1/subscriptions/{sub}/deliveries/{seeded[0]['id']}/resend", headers=api.headers())
    assert resent.status_code == 201, resent.text
    with get_engine().connect() as connection:
        key, state = connection.execute(text("SELECT ordering_key, state FROM delivery_jobs WHERE id = :id"),
                                        {"id": resent.json()["delivery"]["id"]}).one()
    assert (key, state) == (None, "pending")  # an explicit out-of-order send
