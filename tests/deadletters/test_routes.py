"""``/admin/consumer/dead-letters`` (N76) against ``hub api`` and the stack's RabbitMQ: browse, then
REPLAY, DISCARD and LEAVE several at once with the triage stream's outcomes (ORIGIN_QUEUE_DELETED for a
deleted origin, UNSPECIFIED for a message no longer there), and the operator-only gates."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import jsonschema
import pytest

from hub.auth.tokens import mint_token
from hub.consumer.access import TRIAGE, consumer_claims
from tests.conftest import ALL_PERMISSIONS
from tests.contract.test_operations import DEAD_LETTER_OPERATIONS
from devkit.deadletters import dead_letter, take
from devkit.live import live_api

DOCUMENT = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "openapi.json").read_text())
PATH, SEED_QUEUES = "/admin/consumer/dead-letters", "/api/v1beta/queues/durable"
OPERATOR = {"Authorization": f"Bearer {mint_token(tenant=None, permissions=[TRIAGE], subject='ops@example.com')}"}


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with live_api({"HUB_DATABASE_URL": os.environ["HUB_DATABASE_URL"]}) as url:
        yield url


def schema(path: str, method: str) -> dict:
    content = DOCUMENT["paths"][path][method]["responses"]["200"]["content"]["application/json"]
    return {**content["schema"], "components": DOCUMENT["components"]}


def queue(base: str, tenant: str) -> tuple[str, dict[str, str]]:
    token = mint_token(tenant=tenant, permissions=consumer_claims([], None)[0])
    headers, queue_id = {"Authorization": f"Bearer {token}"}, f"dl-{uuid.uuid4().hex[:10]}"
    answer = httpx.post(f"{base}{SEED_QUEUES}", json={"queue_id": queue_id}, headers=headers, timeout=30)
    assert answer.status_code == 201, answer.text
    return queue_id, headers


def act(base: str, *actions: tuple[str, str]) -> list[dict]:
    answer = httpx.post(f"{base}{PATH}/actions", headers=OPERATOR, timeout=60,
                        json={"actions": [{"id": key, "action": action} for key, action in actions]})
    assert answer.status_code == 200, answer.text
    jsonschema.validate(answer.json(), schema(f"{PATH}/actions", "post"))
    return answer.json()["outcomes"]


def test_the_operations_are_listed_extensions() -> None:
    found = {DOCUMENT["paths"][PATH]["get"]["operationId"], DOCUMENT["paths"][f"{PATH}/actions"]["post"]["operationId"]}
    assert found == DEAD_LETTER_OPERATIONS


def test_browse_then_replay_discard_and_leave_at_once(base: str, tenant: str) -> None:
    origin, headers = queue(base, tenant)
    gone, _ = queue(base, tenant)
    replayed, discarded, left = (dead_letter(origin) for _ in range(3))
    orphan = dead_letter(gone)
    assert httpx.delete(f"{base}{SEED_QUEUES}", params={"queue_id": gone}, headers=headers, timeout=30).status_code == 200
    listed = httpx.get(f"{base}{PATH}", params={"limit": 100}, headers=OPERATOR, timeout=30)
    assert listed.status_code == 200, listed.text
    jsonschema.validate(listed.json(), schema(PATH, "get"))
    mine = {item["id"]: item for item in listed.json()["dead_letters"] if item["id"] in {replayed, discarded, left, orphan}}
    assert len(mine) == 4 and mine[replayed]["origin_queue"] == origin and mine[orphan]["origin_queue"] == gone
    assert mine[replayed]["reason"] == "UNSPECIFIED" and mine[replayed]["event"]["event_type"] == "orders.created"

    outcomes = act(base, (replayed, "REPLAY"), (discarded, "DISCARD"), (left, "LEAVE"), (orphan, "REPLAY"),
                   ("0" * 32, "DISCARD"))
    assert [(o["id"], o["outcome"]) for o in outcomes] == [
        (replayed, "REPLAYED"), (discarded, "DISCARDED"), (left, "LEFT"), (orphan, "ORIGIN_QUEUE_DELETED"),
        ("0" * 32, "UNSPECIFIED")]
    assert gone in outcomes[3]["detail"] and take(origin) is not None  # the replayed copy is back in its queue
    again = act(base, (replayed, "DISCARD"), (discarded, "DISCARD"), (left, "DISCARD"), (orphan, "DISCARD"))
    assert [o["outcome"] for o in again] == ["UNSPECIFIED", "UNSPECIFIED", "DISCARDED", "DISCARDED"]


def test_only_the_operator_permission_may_triage(base: str, tenant: str) -> None:
    tenant_token = mint_token(tenant=tenant, permissions=consumer_claims(ALL_PERMISSIONS, None)[0])
    for method, path, body in (("GET", PATH, None), ("POST", f"{PATH}/actions", {"actions": [{"id": "x", "action": "LEAVE"}]})):
        unsigned = httpx.request(method, f"{base}{path}", json=body, timeout=30)
        assert unsigned.status_code == 401 and unsigned.headers["content-type"] == "application/problem+json"
        refused = httpx.request(method, f"{base}{path}", json=body, timeout=30,
                                headers={"Authorization": f"Bearer {tenant_token}"})
        assert refused.status_code == 403 and "inspect-and-replay-all-dlq" in refused.json()["detail"]
    bad = httpx.post(f"{base}{PATH}/actions", json={"actions": [{"id": "x", "action": "PURGE"}]}, headers=OPERATOR,
                     timeout=30)
    assert bad.status_code == 422 and bad.headers["content-type"] == "application/problem+json"
