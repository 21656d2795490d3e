"""``/v1/durable-queues`` (N76) against ``hub api`` and the stack's RabbitMQ: the shape and the committed
document, paging, the unacknowledged count from the streams' holds, and the contract's gates (401, 403,
the uniform 404 for absent, malformed and another tenant's ids, rate-limit headers, problem+json)."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import jsonschema
import pytest
from sqlalchemy import text

from hub.auth.tokens import mint_token
from hub.consumer.access import consumer_claims
from hub.consumer.holds import STALE, unacknowledged
from hub.db import get_engine
from tests.contract.test_operations import DURABLE_QUEUE_OPERATIONS
from devkit.live import live_api

DOCUMENT = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "openapi.json").read_text())
SEED_QUEUES = "/api/v1beta/queues/durable"


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with live_api({"HUB_DATABASE_URL": os.environ["HUB_DATABASE_URL"]}) as url:
        yield url


def token(tenant: str, permissions: list[str] | None = None) -> str:
    granted, _ = consumer_claims([], None)
    return mint_token(tenant=tenant, permissions=granted if permissions is None else permissions)


def bearer(value: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {value}"}


def make_queue(base: str, tenant: str, queue_id: str, groups: list | None = None) -> None:
    answer = httpx.post(f"{base}{SEED_QUEUES}", json={"queue_id": queue_id, "filter_groups": groups or []},
                        headers=bearer(token(tenant)), timeout=30)
    assert answer.status_code == 201, answer.text


def schema(path: str, status: str) -> dict:
    content = DOCUMENT["paths"][path]["get"]["responses"][status]["content"]
    media = "application/json" if "application/json" in content else "application/problem+json"
    return {**content[media]["schema"], "components": DOCUMENT["components"]}


@pytest.fixture(scope="module")
def owned(base: str) -> tuple[str, list[str]]:
    """A tenant with three durable queues (one filtered)."""
    tenant, prefix = f"t-{uuid.uuid4().hex[:12]}", f"q{uuid.uuid4().hex[:8]}"
    ids = [f"{prefix}-{n}" for n in range(3)]
    make_queue(base, tenant, ids[0], [{"event_type": "orders.created", "filters": [{"filter_type": "eq",
                                                                                     "resource_id": "/o/1"}]}])
    for queue_id in ids[1:]:
        make_queue(base, tenant, queue_id)
    return tenant, ids


def test_the_operations_are_listed_extensions_with_their_gates() -> None:
    found = {DOCUMENT["paths"][p]["get"]["operationId"] for p in ("/v1/durable-queues", "/v1/durable-queues/{queue_id}")}
    assert found == DURABLE_QUEUE_OPERATIONS
    for path in ("/v1/durable-queues", "/v1/durable-queues/{queue_id}"):
        spec = DOCUMENT["paths"][path]["get"]
        assert {"200", "401", "403", "429", "500", "503"} <= set(spec["responses"])
        assert "BearerAuth" in json.dumps(spec["security"]) and "X-RateLimit-Remaining" in spec["responses"]["200"]["headers"]
    assert "404" in DOCUMENT["paths"]["/v1/durable-queues/{queue_id}"]["get"]["responses"]


def test_the_list_pages_the_tenants_queues_with_their_state(base: str, owned: tuple[str, list[str]]) -> None:
    tenant, ids = owned
    first = httpx.get(f"{base}/v1/durable-queues", params={"limit": 2}, headers=bearer(token(tenant)), timeout=30)
    assert first.status_code == 200, first.text
    jsonschema.validate(first.json(), schema("/v1/durable-queues", "200"))
    assert {"x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"} <= set(first.headers)
    page = first.json()
    assert [q["queue_id"] for q in page["queues"]] == ids[:2] and page["next_cursor"] == ids[1]
    queue = page["queues"][0]
    assert queue["filter_groups"] == [{"event_type": "orders.created",
                                       "filters": [{"filter_type": "eq", "resource_id": "/o/1"}]}]
    assert (queue["depth"], queue["consumers"], queue["unacknowledged"]) == (0, 0, 0)
    attached = datetime.fromisoformat(queue["last_consumer_at"])
    assert datetime.fromisoformat(queue["idle_expires_at"]) - attached == timedelta(days=1)
    second = httpx.get(f"{base}/v1/durable-queues", params={"limit": 2, "after": page["next_cursor"]},
                       headers=bearer(token(tenant)), timeout=30).json()
    assert [q["queue_id"] for q in second["queues"]] == ids[2:] and second["next_cursor"] is None


def test_one_queue_and_its_unacknowledged_count_from_live_holds(base: str, owned: tuple[str, list[str]]) -> None:
    tenant, ids = owned
    with get_engine().begin() as connection:
        connection.execute(text("INSERT INTO consumer_queue_holds VALUES (:q, 'a', 3, now()), (:q, 'b', 2, now()), "
                                "(:q, 'dead', 7, now() - make_interval(secs => :old))"),
                           {"q": ids[1], "old": STALE + 5})
    assert unacknowledged([ids[1], ids[2]]) == {ids[1]: 5}
    answer = httpx.get(f"{base}/v1/durable-queues/{ids[1]}", headers=bearer(token(tenant)), timeout=30)
    assert answer.status_code == 200, answer.text
    jsonschema.validate(answer.json(), schema("/v1/durable-queues/{queue_id}", "200"))
    assert answer.json()["queue"]["queue_id"] == ids[1] and answer.json()["queue"]["unacknowledged"] == 5


def test_another_tenant_sees_neither_the_queues_nor_one_of_them(base: str, owned: tuple[str, list[str]]) -> None:
    _, ids = owned
    stranger = token(f"t-{uuid.uuid4().hex[:12]}")
    listed = httpx.get(f"{base}/v1/durable-queues", headers=bearer(stranger), timeout=30)
    assert listed.status_code == 200 and listed.json() == {"queues": [], "next_cursor": None}
    answers = [httpx.get(f"{base}/v1/durable-queues/{queue_id}", headers=bearer(stranger), timeout=30)
               for queue_id in (ids[0], "never-made", "bad id!")]
    for answer in answers:
        assert answer.status_code == 404 and answer.headers["content-type"] == "application/problem+json"
        jsonschema.validate(answer.json(), schema("/v1/durable-queues/{queue_id}", "404"))
    assert len({json.dumps({k: v for k, v in a.json().items() if k != "instance"}, sort_keys=True)
                for a in answers}) == 1  # uniform: nothing tells the three apart


def test_the_gates_refuse_with_problems(base: str, owned: tuple[str, list[str]]) -> None:
    tenant, ids = owned
    for path in ("/v1/durable-queues", f"/v1/durable-queues/{ids[0]}"):
        unsigned = httpx.get(f"{base}{path}", timeout=30)
        assert unsigned.status_code == 401 and unsigned.headers["content-type"] == "application/problem+json"
        lacking = httpx.get(f"{base}{path}", headers=bearer(token(tenant, ["subscriptions:get"])), timeout=30)
        assert lacking.status_code == 403 and "consume-durable-queues" in lacking.json()["detail"]


def test_a_queue_the_broker_lost_has_no_counts(base: str, owned: tuple[str, list[str]]) -> None:
    tenant, ids = owned
    lost = f"{ids[0]}-lost"
    make_queue(base, tenant, lost)
    answer = httpx.delete(f"{base}{SEED_QUEUES}", params={"queue_id": lost}, headers=bearer(token(tenant)), timeout=30)
    assert answer.status_code == 200
    with get_engine().begin() as connection:  # the row without its broker queue (a reaped node)
        connection.execute(text("INSERT INTO consumer_queues VALUES (:q, :t, true, '[]', now(), now())"),
                           {"q": lost, "t": tenant})
    queue = httpx.get(f"{base}/v1/durable-queues/{lost}", headers=bearer(token(tenant)), timeout=30).json()["queue"]
    assert queue["depth"] is None and queue["consumers"] is None
    assert datetime.fromisoformat(queue["created_at"]) <= datetime.now(UTC)
