"""The publisher's REST routes in the committed ``schemas/openapi.json`` (seed 000, E10): the seed's
paths and statuses, bearer security, and request and response schemas that accept the seed's own
examples (and the hub's actual answers) and refuse what the seed's rules refuse."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.publisher.test_seed_examples import BATCH, SINGLE

DOCUMENT = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "openapi.json").read_text())
OPERATIONS = {"/api/v1beta/events": "publishEvent", "/api/v1beta/events/batch": "batchPublishEvents"}
SEED_STATUSES = {"200", "400", "401", "403", "422", "503"}


def validator(ref: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": ref, "components": DOCUMENT["components"]})


def _operation(path: str) -> dict[str, Any]:
    return DOCUMENT["paths"][path]["post"]


def _schema_ref(content: dict[str, Any]) -> str:
    return content["application/json"]["schema"]["$ref"]


@pytest.mark.parametrize("path", OPERATIONS)
def test_the_seeds_paths_statuses_and_security(path: str) -> None:
    operation = _operation(path)
    assert operation["operationId"] == OPERATIONS[path]
    assert SEED_STATUSES <= set(operation["responses"])
    assert operation["security"] == [{"BearerAuth": []}]
    assert "Retry-After" in operation["responses"]["503"]["headers"]
    assert operation["requestBody"]["required"] is True


def test_the_seeds_request_examples_match_the_request_schemas() -> None:
    single = validator(_schema_ref(_operation("/api/v1beta/events")["requestBody"]["content"]))
    batch = validator(_schema_ref(_operation("/api/v1beta/events/batch")["requestBody"]["content"]))
    assert single.is_valid(SINGLE) and batch.is_valid(BATCH)
    assert not single.is_valid({"event": {**SINGLE["event"], "message": "text"}})
    assert not single.is_valid({"event": {"message": {}, "occurred_at": "2024-10-16T14:30:00Z"}})
    assert not batch.is_valid({"events": {}})


def test_the_seeds_response_examples_match_the_response_schemas() -> None:
    single = validator(_schema_ref(_operation("/api/v1beta/events")["responses"]["200"]["content"]))
    batch = validator(_schema_ref(_operation("/api/v1beta/events/batch")["responses"]["200"]["content"]))
    assert single.is_valid({"result": {"event": SINGLE["event"], "success": True}})
    assert single.is_valid({"result": {"event": SINGLE["event"], "success": False,
                                       "failure_reason": "Unable to connect to message broker"}})
    assert batch.is_valid({"results": [{"event": BATCH["events"][0], "success": True},
                                       {"event": BATCH["events"][1], "success": False,
                                        "failure_reason": "Publish failed"}]})
    assert not single.is_valid({"result": {"event": {}}})


def test_the_seeds_rest_health_check(client) -> None:  # noqa: ANN001
    """Seed 000: ``GET /health`` returns 200 if healthy; it needs no token."""
    operation = DOCUMENT["paths"]["/health"]["get"]
    assert "security" not in operation and "200" in operation["responses"]
    response = client.get("/health")
    assert response.status_code == 200 and validator(_schema_ref(operation["responses"]["200"]["content"])).is_valid(
        response.json())


def test_the_hubs_answers_match_the_response_schemas(client, tenant: str) -> None:  # noqa: ANN001
    """Answers the hub gives without a broker: a batch whose events all fail before it."""
    from tests.publisher.conftest import bearer, publisher_token

    batch = validator(_schema_ref(_operation("/api/v1beta/events/batch")["responses"]["200"]["content"]))
    response = client.post("/api/v1beta/events/batch", headers=bearer(publisher_token(tenant, ["only.this"])),
                           json={"events": [BATCH["events"][0], "not an object", {"event_type": "only.this"}]})
    assert response.status_code == 200 and batch.is_valid(response.json()), response.text
