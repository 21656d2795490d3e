"""Resend and recover end to end (N47-N51): the real delivery engine, a real HTTPS receiver, a scratch
database of their own (the engine claims every due job in it), the API on the same database.

The receiver answers 410 on ``/gone`` (dead-lettered at once) and 200 on ``/ok``; it records every
request, so what was re-delivered is read from what arrived, signed with the subscription's current secret.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks import Webhook

from hub.db import get_engine
from hub.ids import new_id
from hub.secrets import mint_signing_secret, seal
from hub.subscription.service import secret_context
from tests.deliver.conftest import (  # noqa: F401 (fixtures used by name)
    TERMINAL, deliver_db, drive, insert_subscription, job_states, scratch_url, sql,
)
from tests.sinks.conftest import HOOK_HOST, ca, ca_bundle, hook_dns  # noqa: F401 (fixtures used by name)
from devkit.receiver import Received, Receiver, Reply, https_receiver


@pytest.fixture
def hub_db(deliver_db: str, override_settings) -> Iterator[str]:  # noqa: ANN001
    """The API uses the scratch database too; recoveries run one job a batch, with no pause."""
    override_settings(recovery_batch_jobs="1", recovery_pause_seconds="0")
    get_engine.cache_clear()
    yield deliver_db
    get_engine().dispose()
    get_engine.cache_clear()


@pytest.fixture
def receiver(ca) -> Iterator[Receiver]:  # noqa: ANN001
    def script(item: Received) -> Reply:
        return Reply(410) if item.path.endswith("/gone") else Reply()

    with https_receiver(ca, (HOOK_HOST,), script) as state:
        yield state


def add_events(url: str, tenant: str, sub: uuid.UUID, count: int) -> list[str]:
    """``count`` events and their jobs, as ingest writes them (UUIDv7 job ids); returns the CloudEvent ids."""
    ids = []
    for _ in range(count):
        [(seq,)] = sql(url, """INSERT INTO tenant_counters (tenant_id, last_seq) VALUES (%s, 1) ON CONFLICT (tenant_id)
                               DO UPDATE SET last_seq = tenant_counters.last_seq + 1 RETURNING last_seq""", (tenant,))
        ce_id = f"e-{uuid.uuid4().hex[:10]}"
        attributes = {"specversion": "1.0", "id": ce_id, "source": "ledger", "type": "transaction.posted",
                      "tenantid": tenant, "datacontenttype": "application/json"}
        sql(url, """INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major,
                        received_at, attributes, data, kafka_topic, kafka_partition, kafka_offset)
                    VALUES (%s, %s, 'ledger', %s, 'transaction.posted', '1.0.0', 1, now(), %s, '{}', 't', 0, %s)""",
            (tenant, seq, ce_id, json.dumps(attributes), seq))
        sql(url, """INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts,
                        next_attempt_at, last_error_class, created_at, updated_at)
                    VALUES (%s, %s, %s, %s, 'pending', 0, now(), '', now(), now())""", (new_id(), tenant, sub, seq))
        ids.append(ce_id)
    return ids


def settled(url: str, tenant: str) -> bool:
    return set(job_states(url, tenant)) <= TERMINAL


def point(url: str, sub: uuid.UUID, endpoint: str, *, enabled: bool = True, state: str = "active") -> str:
    """Move the subscription to ``endpoint`` with a new signing secret; returns the secret."""
    secret = mint_signing_secret()
    sql(url, "UPDATE subscriptions SET endpoint = %s, enabled = %s, verification_state = %s, secret_current = %s"
             " WHERE id = %s", (endpoint, enabled, state, seal(secret, context=secret_context(sub, "secret_current")),
                                sub))
    return secret


def delivered_ids(receiver: Receiver, secret: str, *, skip: int = 0) -> list[str]:
    """The CloudEvent ids that reached ``/ok`` (after the first ``skip`` requests), each signature checked
    with ``secret``."""
    found = []
    for item in receiver.received[skip:]:
        if item.path.endswith("/ok"):
            Webhook(secret).verify(item.body, {k.lower(): v for k, v in item.headers.items()})
            found.append(json.loads(item.body)["id"])
    return found


def post(client, token: str, path: str, key: str, body: dict | None = None):  # noqa: ANN001, ANN201
    return client.post(path, json=body, headers={"Authorization": f"Bearer {token}", "X-Idempotency": key})


def test_resend_delivers_the_event_again_on_the_current_destination(client, make_token, hub_db: str,
                                                                    receiver: Receiver, tenant: str) -> None:
    token, base = make_token(), f"https://{HOOK_HOST}:{receiver.port}"
    sub, _ = insert_subscription(hub_db, tenant, f"{base}/gone")
    [event] = add_events(hub_db, tenant, sub, 1)
    drive(lambda: settled(hub_db, tenant))
    [(old,)] = sql(hub_db, "SELECT id FROM delivery_jobs WHERE subscription_id = %s", (sub,))
    secret = point(hub_db, sub, f"{base}/ok")
    path = f"/v1/subscriptions/{sub}/deliveries/{old}/resend"
    first = post(client, token, path, "resend-1")
    assert first.status_code == 201, first.text
    new = first.json()["delivery"]
    assert new["state"] == "pending" and new["event"]["id"] == event and new["id"] != str(old)
    assert sql(hub_db, "SELECT priority FROM delivery_jobs WHERE id = %s", (new["id"],)) == [(0,)]  # N58: live
    assert first.headers["location"].endswith(f"/deliveries/{new['id']}")
    replay = post(client, token, path, "resend-1")
    assert replay.status_code == 201 and replay.json() == first.json()
    assert replay.headers["x-idempotency-replayed"] == "true"
    drive(lambda: settled(hub_db, tenant))
    assert delivered_ids(receiver, secret) == [event]  # once: the replay made no second job
    log = client.get(f"/v1/subscriptions/{sub}/deliveries", headers={"Authorization": f"Bearer {token}"}).json()
    assert [(job["id"], job["state"]) for job in log["deliveries"]] == [(new["id"], "delivered"),
                                                                       (str(old), "dead_lettered")]


def test_resend_and_recover_refuse_a_subscription_that_is_not_deliverable(client, make_token, hub_db: str,
                                                                         receiver: Receiver, tenant: str) -> None:
    token, base = make_token(), f"https://{HOOK_HOST}:{receiver.port}"
    sub, _ = insert_subscription(hub_db, tenant, f"{base}/gone")
    add_events(hub_db, tenant, sub, 1)
    drive(lambda: settled(hub_db, tenant))
    [(old,)] = sql(hub_db, "SELECT id FROM delivery_jobs WHERE subscription_id = %s", (sub,))
    since = {"since": (datetime.now(UTC) - timedelta(hours=1)).isoformat()}
    for enabled, state, code in ((False, "active", "subscription_disabled"),
                                 (True, "pending_verification", "subscription_not_active"),
                                 (True, "degraded", "subscription_not_active")):
        point(hub_db, sub, f"{base}/ok", enabled=enabled, state=state)
        for path, body in ((f"/v1/subscriptions/{sub}/deliveries/{old}/resend", None),
                           (f"/v1/subscriptions/{sub}/recover", since)):
            key = f"refused-{uuid.uuid4().hex}"
            refused = post(client, token, path, key, body)
            assert refused.status_code == 409 and refused.json()["code"] == code, (path, refused.text)
            assert refused.headers["content-type"] == "application/problem+json"
            assert post(client, token, path, key, body).json()["code"] == code  # the key keeps its answer
    [(jobs,)] = sql(hub_db, "SELECT count(*) FROM delivery_jobs WHERE subscription_id = %s", (sub,))
    assert jobs == 1


def test_recover_redelivers_failed_jobs_and_events_that_arrived_while_disabled(
        client, make_token, hub_db: str, receiver: Receiver, tenant: str) -> None:
    token, base = make_token(), f"https://{HOOK_HOST}:{receiver.port}"
    sub, _ = insert_subscription(hub_db, tenant, f"{base}/ok")
    delivered = add_events(hub_db, tenant, sub, 1)
    drive(lambda: settled(hub_db, tenant))
    point(hub_db, sub, f"{base}/gone")
    dead = add_events(hub_db, tenant, sub, 2)
    drive(lambda: settled(hub_db, tenant))
    point(hub_db, sub, f"{base}/gone", enabled=False)
    while_disabled = add_events(hub_db, tenant, sub, 2)  # ingest writes their jobs; the engine ends them disabled
    drive(lambda: settled(hub_db, tenant))
    assert job_states(hub_db, tenant) == {"delivered": 1, "dead_lettered": 2, "disabled": 2}
    secret, before = point(hub_db, sub, f"{base}/ok"), len(receiver.received)
    body = {"since": (datetime.now(UTC) - timedelta(hours=1)).isoformat()}
    accepted = post(client, token, f"/v1/subscriptions/{sub}/recover", "recover-1", body)
    assert accepted.status_code == 202, accepted.text
    recovery = accepted.json()["recovery"]
    assert (recovery["matched"], recovery["outcomes"]) == (4, ["dead_lettered", "disabled", "failed"])
    replay = post(client, token, f"/v1/subscriptions/{sub}/recover", "recover-1", body)
    assert replay.status_code == 202 and replay.json() == accepted.json()
    assert replay.headers["x-idempotency-replayed"] == "true"
    progress = client.get(accepted.headers["location"], headers={"Authorization": f"Bearer {token}"})
    assert progress.status_code == 200
    done = progress.json()["recovery"]
    assert (done["state"], done["requeued"], done["skipped"]) == ("completed", 4, 0) and "completed_at" in done
    priorities = sql(hub_db, "SELECT priority, count(*) FROM delivery_jobs WHERE subscription_id = %s "
                             "GROUP BY priority ORDER BY priority", (sub,))
    assert priorities == [(0, 5), (1, 4)]  # N58: the recovery's new jobs are bulk, the originals stay live
    drive(lambda: settled(hub_db, tenant))
    assert sorted(delivered_ids(receiver, secret, skip=before)) == sorted(dead + while_disabled)
    assert [json.loads(item.body)["id"] for item in receiver.received[:before] if item.path.endswith("/ok")] == delivered
    assert job_states(hub_db, tenant) == {"delivered": 5, "dead_lettered": 2, "disabled": 2}
