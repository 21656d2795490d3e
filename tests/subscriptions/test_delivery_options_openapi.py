"""The delivery-options routes (N67) in the committed OpenAPI document, and real answers valid against it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from tests.contract.test_operations import DELIVERY_OPTIONS_OPERATIONS
from tests.subscriptions.conftest import LOOPBACK_WEBHOOK

COMMITTED = Path(__file__).resolve().parents[2] / "schemas" / "openapi.json"
DOCUMENT = json.loads(COMMITTED.read_text(encoding="utf-8"))
PATH = "/v1/subscriptions/{id}/delivery-options"


def _schema(method: str, status: str) -> dict:
    content = DOCUMENT["paths"][PATH][method]["responses"][status]["content"]
    media = "application/json" if "application/json" in content else "application/problem+json"
    return {**content[media]["schema"], "components": DOCUMENT["components"]}


def test_the_operations_are_the_listed_extensions():
    ids = {DOCUMENT["paths"][PATH][method]["operationId"] for method in ("get", "put")}
    assert ids == DELIVERY_OPTIONS_OPERATIONS


def test_both_operations_document_their_gates():
    get, put = DOCUMENT["paths"][PATH]["get"], DOCUMENT["paths"][PATH]["put"]
    for spec in (get, put):
        assert {"200", "401", "403", "404", "500", "503"} <= set(spec["responses"])
        assert "BearerAuth" in json.dumps(spec.get("security", []))
    assert "429" in get["responses"] and "X-RateLimit-Remaining" in get["responses"]["200"]["headers"]
    assert {"400", "409", "422"} <= set(put["responses"])
    assert "X-Idempotency-Replayed" in put["responses"]["200"]["headers"]
    assert [p["name"] for p in put["parameters"]] == ["id", "X-Idempotency"]
    body = put["requestBody"]["content"]["application/json"]["schema"]
    resolved = DOCUMENT["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]]
    assert set(resolved["properties"]) == {"filter", "headers", "rate_limit_per_second", "ordering"}
    assert resolved["additionalProperties"] is False and not resolved.get("required")


def test_real_answers_match_the_document(api, allow_loopback):
    sub_id = api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]["id"]
    options = {"filter": {"type": "a.b"}, "rate_limit_per_second": 3,
               "headers": [{"name": "X-Key", "value": "s3cret", "secret": True}]}
    jsonschema.validate(api.with_options(sub_id, **options), _schema("put", "200"))
    jsonschema.validate(api.options(sub_id).json(), _schema("get", "200"))
    jsonschema.validate(api.put_options(sub_id, {"filter": 1}).json(), _schema("put", "422"))
    jsonschema.validate(api.options("not-a-uuid").json(), _schema("get", "404"))
