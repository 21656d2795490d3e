"""GET …/blocked-keys and POST …/blocked-keys/resume (N77) against PostgreSQL: what a blocked key shows,
retry and skip through the data plane, the gates (401, 403, uniform 404, X-Idempotency and its replay), the
stable refusals, and paging."""

from __future__ import annotations

import uuid

import psycopg

from hub.db import libpq_url
from hub.ids import new_id
from tests.blockedkeys.conftest import (
    block, enqueue_key, head_of, job_states, key_values, listed, ordered_webhook, resume,
)
from tests.subscriptions.conftest import new_key, problem


def test_a_blocked_key_shows_its_head_its_last_error_and_what_waits(api, tenant):
    sub = ordered_webhook(api)
    assert listed(api, sub).json() == {"blocked_keys": [], "next_cursor": ""}
    key = enqueue_key(tenant, sub, "order-7", 4)
    enqueue_key(tenant, sub, "order-8", 2)  # open, not blocked: not listed
    assert listed(api, sub).json()["blocked_keys"] == []
    block(tenant, sub, "order-7")
    answer = listed(api, sub)
    assert answer.status_code == 200 and {"x-ratelimit-limit", "x-ratelimit-remaining"} <= set(answer.headers)
    [shown] = answer.json()["blocked_keys"]
    assert shown["key"] == "order-7" and shown["waiting"] == 3 and shown["blocked_at"]
    head = shown["head"]
    assert head["job_id"] == str(key.jobs[0]) and head["attempt_count"] == 1
    assert head["event"]["seq"] == key.seqs[0] and head["event"]["type"] == "transaction.posted"
    assert head["last_error"]["outcome"] == "dead_lettered" and head["last_error"]["error_class"] == "http_4xx"
    assert head["last_error"]["status_code"] == 503


def test_retry_makes_a_new_head_due_now_and_the_key_unblocked(api, tenant):
    sub = ordered_webhook(api)
    key = enqueue_key(tenant, sub, "k", 3)
    block(tenant, sub, "k")
    answer = resume(api, sub, {"key": "k", "action": "retry"})
    assert answer.status_code == 200, answer.text
    resumed = answer.json()["resumed"]
    assert resumed["key"] == "k" and resumed["action"] == "retry"
    new_head = uuid.UUID(resumed["job_id"])
    assert new_head not in key.jobs and head_of(sub, "k") == new_head
    states = job_states(sub)
    assert states[new_head] == "pending" and states[key.jobs[0]] == "dead_lettered", "the old head stays recorded"
    assert [states[job] for job in key.jobs[1:]] == ["waiting", "waiting"]
    assert listed(api, sub).json()["blocked_keys"] == []
    with psycopg.connect(libpq_url()) as conn:
        [(seq, ordering_key)] = conn.execute("SELECT event_seq, ordering_key FROM delivery_jobs WHERE id = %s",
                                             (new_head,)).fetchall()
    assert (seq, ordering_key) == (key.seqs[0], "k"), "the same event, the same key"


def test_skip_leaves_the_head_dead_lettered_records_the_skip_and_sends_the_next(api, tenant):
    sub = ordered_webhook(api)
    key = enqueue_key(tenant, sub, "k", 3)
    block(tenant, sub, "k")
    answer = resume(api, sub, {"key": "k", "action": "skip"})
    assert answer.status_code == 200 and answer.json()["resumed"]["job_id"] == str(key.jobs[0])
    states = job_states(sub)
    assert [states[job] for job in key.jobs] == ["dead_lettered", "pending", "waiting"]
    assert head_of(sub, "k") == key.jobs[1]
    log = api.client.get(f"/v1/subscriptions/{sub}/deliveries/{key.jobs[0]}", headers=api.headers(None)).json()
    assert "skipped by the operator" in log["delivery"]["attempts"][-1]["detail"]


def test_an_unknown_key_is_404_and_an_open_one_409_with_stable_codes(api, tenant):
    sub = ordered_webhook(api)
    enqueue_key(tenant, sub, "open", 2)
    problem(resume(api, sub, {"key": "nope", "action": "retry"}), 404, "ordered_key_not_found")
    problem(resume(api, sub, {"key": "open", "action": "skip"}), 409, "key_not_blocked")
    block(tenant, sub, "open")
    assert resume(api, sub, {"key": "open", "action": "skip"}).status_code == 200
    problem(resume(api, sub, {"key": "open", "action": "skip"}), 409, "key_not_blocked")


def test_resume_requires_x_idempotency_and_replays_its_answer(api, tenant):
    sub = ordered_webhook(api)
    enqueue_key(tenant, sub, "k", 2)
    block(tenant, sub, "k")
    problem(resume(api, sub, {"key": "k", "action": "retry"}, key=None), 400, "missing_idempotency_key")
    idem = new_key()
    first = resume(api, sub, {"key": "k", "action": "retry"}, key=idem)
    again = resume(api, sub, {"key": "k", "action": "retry"}, key=idem)
    assert first.status_code == again.status_code == 200 and again.content == first.content
    assert again.headers["x-idempotency-replayed"] == "true" and "x-idempotency-replayed" not in first.headers
    assert sum(1 for state in job_states(sub).values() if state == "pending") == 1, "one retry, not two"
    problem(resume(api, sub, {"key": "k", "action": "skip"}, key=idem), 409, "idempotency_conflict")


def test_bodies_are_validated(api):
    sub = ordered_webhook(api)
    for body, location in (({"key": "k", "action": "drop"}, "action"), ({"action": "retry"}, "key"),
                           ({"key": 7, "action": "retry"}, "key"), ({"key": "k", "action": "skip", "x": 1}, "x")):
        refused = problem(resume(api, sub, body), 422, "validation_error")
        assert [error["location"] for error in refused["errors"]] == [location]
    problem(listed(api, sub, limit="many"), 422, "validation_error")
    problem(listed(api, sub, after="not-a-cursor"), 400, "invalid_cursor")


def test_gates_and_the_uniform_404(api, make_token, tenant):
    sub = ordered_webhook(api)
    problem(api.client.get(f"/v1/subscriptions/{sub}/blocked-keys"), 401, "AUT-0006")
    problem(api.client.post(f"/v1/subscriptions/{sub}/blocked-keys/resume", json={"key": "k", "action": "skip"},
                            headers={"X-Idempotency": new_key()}), 401, "AUT-0006")
    poster = make_token(permissions=["subscriptions:post"])
    refused = problem(api.client.get(f"/v1/subscriptions/{sub}/blocked-keys", headers=api.headers(None, poster)),
                      403, "AUT-1020")
    assert "subscriptions:get" in refused["detail"]
    reader = make_token(permissions=["subscriptions:get"])
    refused = problem(resume(api, sub, {"key": "k", "action": "skip"}, token=reader), 403, "AUT-1020")
    assert "subscriptions:post" in refused["detail"]
    other = make_token(tenant_id=f"other-{uuid.uuid4().hex[:8]}")
    bodies = set()
    for sub_id, token in ((sub, other), (str(new_id()), None), ("not-a-uuid", None)):
        for answer in (api.client.get(f"/v1/subscriptions/{sub_id}/blocked-keys",
                                      headers=api.headers(None, token)),
                       resume(api, sub_id, {"key": "k", "action": "skip"}, token=token)):
            body = problem(answer, 404, "not_found")
            bodies.add((body["detail"], body["type"]))
    assert len(bodies) == 1


def test_pages_walk_every_blocked_key_once_oldest_block_first(api, tenant):
    sub = ordered_webhook(api)
    for index in range(5):
        enqueue_key(tenant, sub, f"key-{index}", 2)
        block(tenant, sub, f"key-{index}")
    seen, cursor = [], ""
    while True:
        page = listed(api, sub, limit=2, **({"after": cursor} if cursor else {})).json()
        assert len(page["blocked_keys"]) <= 2
        seen += [item["key"] for item in page["blocked_keys"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert seen == [f"key-{index}" for index in range(5)]


def test_turning_ordering_off_releases_every_waiting_job(api, tenant):
    sub = ordered_webhook(api)
    first, second = enqueue_key(tenant, sub, "a", 3), enqueue_key(tenant, sub, "b", 2)
    block(tenant, sub, "a")
    assert api.with_options(sub, ordering={"key": "partitionkey", "on_dead_letter": "skip"})["ordering"] == {
        "key": "partitionkey", "on_dead_letter": "skip"}
    assert key_values(sub) == {"a", "b"}, "changing the policy releases nothing"
    assert api.with_options(sub)["ordering"] is None
    states = job_states(sub)
    assert [states[job] for job in first.jobs] == ["dead_lettered", "pending", "pending"]
    assert [states[job] for job in second.jobs] == ["pending", "pending"]
    assert key_values(sub) == set() and listed(api, sub).json()["blocked_keys"] == []
    problem(resume(api, sub, {"key": "a", "action": "retry"}), 404, "ordered_key_not_found")


def test_deleting_an_ordered_subscription_releases_its_keys(api, tenant):
    sub = ordered_webhook(api)
    key = enqueue_key(tenant, sub, "k", 3)
    block(tenant, sub, "k")
    assert api.delete(sub).status_code == 204
    states = job_states(sub)
    assert [states[job] for job in key.jobs] == ["dead_lettered", "pending", "pending"], "the engine ends them"
    assert key_values(sub) == set()


def test_a_head_the_sweep_removed_still_lists_and_a_retry_says_why_it_cannot(api, tenant):
    sub = ordered_webhook(api)
    key = enqueue_key(tenant, sub, "k", 2)
    block(tenant, sub, "k")
    with psycopg.connect(libpq_url()) as conn:
        conn.execute("DELETE FROM delivery_attempts WHERE job_id = %s", (key.jobs[0],))
        conn.execute("DELETE FROM delivery_jobs WHERE id = %s", (key.jobs[0],))
        conn.execute("DELETE FROM event_log WHERE tenant_id = %s AND seq = %s", (tenant, key.seqs[0]))
    [shown] = listed(api, sub).json()["blocked_keys"]
    assert shown["head"] == {"job_id": str(key.jobs[0]), "attempt_count": 0} and shown["waiting"] == 1
    problem(resume(api, sub, {"key": "k", "action": "retry"}), 409, "event_not_retained")
    assert resume(api, sub, {"key": "k", "action": "skip"}).status_code == 200
    assert job_states(sub)[key.jobs[1]] == "pending"
