"""The consumer's REST routes in the committed ``schemas/openapi.json`` (seed 000, E10): the seed's paths,
parameters and statuses, bearer security, the SSE media type, and body schemas that accept the seed's own
examples and refuse what its rules refuse."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

DOCUMENT = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "openapi.json").read_text())
STREAM, DURABLE_STREAM, QUEUES = "/api/v1beta/events/stream", "/api/v1beta/events/stream-durable", \
    "/api/v1beta/queues/durable"
OPERATIONS = {(STREAM, "get"): "streamNonDurableEvents", (DURABLE_STREAM, "get"): "streamDurableEvents",
              (QUEUES, "post"): "createDurableQueue", (QUEUES, "patch"): "updateDurableQueue",
              (QUEUES, "delete"): "deleteDurableQueue"}
SEED_STATUSES = {"200", "401", "403", "404", "422", "500", "503"}
SEED_FILTER_GROUPS = [{"event_type": "myapp.file.uploaded",
                       "filters": [{"filter_type": "starts_with_greedy", "resource_id": "/uploads/"}]}]


def _operation(path: str, method: str) -> dict[str, Any]:
    return DOCUMENT["paths"][path][method]


def _validator(content: dict[str, Any]) -> Draft202012Validator:
    ref = content["application/json"]["schema"]["$ref"]
    return Draft202012Validator({"$ref": ref, "components": DOCUMENT["components"]})


@pytest.mark.parametrize(("path", "method"), list(OPERATIONS))
def test_the_seeds_paths_statuses_and_security(path: str, method: str) -> None:
    operation = _operation(path, method)
    assert operation["operationId"] == OPERATIONS[(path, method)]
    assert operation["security"] == [{"BearerAuth": []}]
    assert SEED_STATUSES <= set(operation["responses"])
    assert all("application/problem+json" in operation["responses"][status]["content"]
               for status in SEED_STATUSES - {"200"})


def test_the_streams_are_server_sent_events_with_the_seeds_parameters() -> None:
    for path in (STREAM, DURABLE_STREAM):
        assert list(_operation(path, "get")["responses"]["200"]["content"]) == ["text/event-stream"]
    stream = {(p["in"], p["name"]): p for p in _operation(STREAM, "get")["parameters"]}
    assert set(stream) == {("query", "filter_groups"), ("query", "previous_filter_groups"),
                           ("query", "reconnect_token"), ("header", "Last-Event-ID")}
    assert stream[("query", "reconnect_token")]["deprecated"] is True
    for path, method in ((DURABLE_STREAM, "get"), (QUEUES, "delete")):
        [queue_id] = _operation(path, method)["parameters"]
        assert (queue_id["in"], queue_id["name"], queue_id["required"]) == ("query", "queue_id", True)


def test_the_seeds_bodies_match_the_schemas() -> None:
    create = _operation(QUEUES, "post")
    request = _validator(create["requestBody"]["content"])
    assert request.is_valid({"filter_groups": SEED_FILTER_GROUPS, "queue_id": "myapp-uploads-queue"})
    assert request.is_valid({}) and not request.is_valid({"filter_groups": "all"})
    assert not request.is_valid({"filter_groups": [{"filters": [{"filter_type": "regex"}]}]})
    for status in ("200", "201"):
        assert _validator(create["responses"][status]["content"]).is_valid(
            {"queue_id": "durable-queue-abc123", "created": True})
    update = _operation(QUEUES, "patch")
    assert _validator(update["requestBody"]["content"]).is_valid(
        {"queue_id": "q", "current_filter_groups": SEED_FILTER_GROUPS, "new_filter_groups": []})
    assert not _validator(update["requestBody"]["content"]).is_valid({"new_filter_groups": []})
    for path, method in ((QUEUES, "patch"), (QUEUES, "delete")):
        assert _validator(_operation(path, method)["responses"]["200"]["content"]).is_valid({"success": True})
