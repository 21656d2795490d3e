"""The delivery log (N45, N46): newest first, stable keyset pages while jobs arrive, filters, one job."""

from __future__ import annotations

import threading
from datetime import timedelta

from hub.sinks.vocabulary import Outcome
from tests.deliverylog.conftest import deliveries, seed_job, seed_many, walk
from devkit.deliveries import now
from tests.subscriptions.conftest import Api


def test_pages_are_newest_first_and_stable_while_new_jobs_arrive(api: Api, sub: str, tenant: str) -> None:
    existing = seed_many(tenant, sub, 23)
    arrived: list[str] = []

    def arrive() -> None:  # two new jobs between every two pages
        arrived.extend(seed_many(tenant, sub, 2, start=now()))

    seen = walk(api, sub, between=arrive, limit=5)
    assert seen == list(reversed(existing))  # every job that existed, once, newest first; none that arrived
    everything = walk(api, sub, limit=200)
    assert set(everything[: len(arrived)]) == set(arrived) and everything[len(arrived):] == seen
    assert everything == sorted(everything, reverse=True)


def test_paging_under_concurrent_inserts_skips_and_repeats_nothing(api: Api, sub: str, tenant: str) -> None:
    existing = seed_many(tenant, sub, 40)
    stop = threading.Event()

    def insert() -> None:
        while not stop.is_set():
            seed_many(tenant, sub, 1, start=now())

    writer = threading.Thread(target=insert)
    writer.start()
    try:
        seen = walk(api, sub, limit=3)
    finally:
        stop.set()
        writer.join()
    assert len(seen) == len(set(seen))
    assert [job for job in seen if job in set(existing)] == list(reversed(existing))


def test_a_job_shows_its_event_state_outcome_and_attempts(api: Api, sub: str, tenant: str) -> None:
    at = now() - timedelta(hours=1)
    job = seed_job(tenant, sub, at=at, outcomes=(Outcome.failed, Outcome.delivered))
    listed = deliveries(api, sub)
    assert listed.status_code == 200 and listed.headers["x-ratelimit-limit"]
    [record] = listed.json()["deliveries"]
    detail = api.client.get(f"/v1/subscriptions/{sub}/deliveries/{job['id']}", headers=api.headers(None))
    assert detail.status_code == 200 and detail.headers["x-ratelimit-remaining"]
    assert detail.json()["delivery"] == record
    assert record["event"]["id"] == job["ce_id"] and record["event"]["type"] == "transaction.posted"
    assert record["state"] == "delivered" and record["outcome"] == "delivered" and record["attempt_count"] == 2
    assert "next_attempt_at" not in record
    first, second = record["attempts"]
    assert (first["attempt_no"], first["outcome"], first["status_code"], first["error_class"]) == (
        1, "failed", 503, "http_5xx")
    assert first["detail"] == "HTTP 503" and first["latency_ms"] == 12
    assert (second["outcome"], second["status_code"], second["error_class"]) == ("delivered", 200, "")


def test_filters(api: Api, sub: str, tenant: str) -> None:
    base = now() - timedelta(hours=3)
    pending = seed_job(tenant, sub, at=base)
    retrying = seed_job(tenant, sub, at=base + timedelta(hours=1), outcomes=(Outcome.failed,))
    dead = seed_job(tenant, sub, at=base + timedelta(hours=2), outcomes=(Outcome.dead_lettered,),
                    event_type="account.created")

    def ids(**params: object) -> list[str]:
        answer = deliveries(api, sub, **params)
        assert answer.status_code == 200, answer.text
        return [job["id"] for job in answer.json()["deliveries"]]

    assert ids() == [dead["id"], retrying["id"], pending["id"]]
    assert ids(state="pending,dead_lettered") == [dead["id"], pending["id"]]
    assert ids(outcome="failed") == [retrying["id"]]
    assert ids(outcome="failed,dead_lettered", state="retrying") == [retrying["id"]]
    assert ids(event_type="account.created") == [dead["id"]]
    assert ids(event_id=retrying["ce_id"]) == [retrying["id"]]
    assert ids(since=(base + timedelta(minutes=30)).isoformat()) == [dead["id"], retrying["id"]]
    assert ids(until=(base + timedelta(minutes=90)).isoformat()) == [retrying["id"], pending["id"]]
    assert ids(event_id="no-such-event") == []


def test_bad_filters_are_the_hubs_own_refusals(api: Api, sub: str) -> None:
    for params, location in (({"state": "lost"}, "state"), ({"outcome": "pending"}, "outcome"),
                             ({"since": "yesterday"}, "since"), ({"since": "2026-01-01T00:00:00"}, "since"),
                             ({"limit": "ten"}, "limit"), ({"since": "2026-02-01T00:00:00Z",
                                                            "until": "2026-01-01T00:00:00Z"}, "until")):
        answer = deliveries(api, sub, **params)
        assert answer.status_code == 422, params
        assert answer.json()["code"] == "validation_error" and answer.json()["errors"][0]["location"] == location
    bad_cursor = deliveries(api, sub, after="not-a-cursor")
    assert bad_cursor.status_code == 400 and bad_cursor.json()["code"] == "invalid_cursor"
    assert bad_cursor.headers["content-type"] == "application/problem+json"
