"""The broker's routes in the committed OpenAPI document, and real answers valid against it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

COMMITTED = Path(__file__).resolve().parents[2] / "schemas" / "openapi.json"
DOCUMENT = json.loads(COMMITTED.read_text(encoding="utf-8"))
BASE = "/api/{domain}/event"
SEED_ROUTES = {  # seed 003: method, path → the answer it documents
    ("post", "/data/{topic}"): "201", ("get", "/data/{topic}"): "200", ("delete", "/data/{topic}"): "200",
    ("put", "/topics/{topic}"): "200", ("get", "/topics/{topic}"): "200", ("delete", "/topics/{topic}"): "204",
    ("get", "/topics"): "200",
}


def operation(method: str, path: str) -> dict:
    return DOCUMENT["paths"][BASE + path][method]


def response_schema(method: str, path: str, status: str) -> dict:
    content = operation(method, path)["responses"][status]["content"]
    media = "application/json" if "application/json" in content else "application/problem+json"
    return {**content[media]["schema"], "components": DOCUMENT["components"]}


@pytest.mark.parametrize(("method", "path"), sorted(SEED_ROUTES))
def test_every_seed_route_is_documented_with_its_answers(method, path):
    spec = operation(method, path)
    assert SEED_ROUTES[(method, path)] in spec["responses"]
    assert {"401", "403", "422"} <= set(spec["responses"])
    names = {parameter["name"] for parameter in spec["parameters"]}
    assert "domain" in names and ("{topic}" not in path or "topic" in names)
    assert "BearerAuth" in json.dumps(spec.get("security", []))


def test_query_parameters_are_the_seeds():
    assert {p["name"] for p in operation("get", "/data/{topic}")["parameters"]} >= {"type", "limit", "until"}
    assert {p["name"] for p in operation("delete", "/data/{topic}")["parameters"]} >= {"type", "since", "until"}
    body = DOCUMENT["components"]["schemas"]["PublishBody"]["properties"]
    assert set(body) == {"type", "data"}
    assert set(DOCUMENT["components"]["schemas"]["TopicConfigBody"]["properties"]) == {"max_events", "ttl_seconds"}


def test_real_answers_match_the_document(broker, ingest):
    published = broker.call("POST", "/data/orders:1042", json={"type": "order.shipped", "data": {"a": 1}})
    jsonschema.validate(published.json(), response_schema("post", "/data/{topic}", "201"))
    history = broker.call("GET", "/data/orders", params={"limit": 5})
    jsonschema.validate(history.json(), response_schema("get", "/data/{topic}", "200"))
    config = broker.call("PUT", "/topics/orders", json={"max_events": 5})
    jsonschema.validate(config.json(), response_schema("put", "/topics/{topic}", "200"))
    default = broker.call("GET", "/topics/chat")
    jsonschema.validate(default.json(), response_schema("get", "/topics/{topic}", "200"))
    listed = broker.call("GET", "/topics")
    jsonschema.validate(listed.json(), response_schema("get", "/topics", "200"))
    purged = broker.call("DELETE", "/data/orders")
    jsonschema.validate(purged.json(), response_schema("delete", "/data/{topic}", "200"))
    refused = broker.call("GET", "/data/orders", domain="elsewhere")
    jsonschema.validate(refused.json(), response_schema("get", "/data/{topic}", "403"))
    invalid = broker.call("GET", "/topics/orders:1")
    jsonschema.validate(invalid.json(), response_schema("get", "/topics/{topic}", "422"))
