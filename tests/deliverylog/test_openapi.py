"""The delivery log's routes in the committed OpenAPI document, and real answers valid against it."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import jsonschema
import pytest

from hub.sinks.vocabulary import Outcome
from tests.contract.test_operations import DELIVERY_LOG_OPERATIONS
from tests.deliverylog.conftest import seed_job
from devkit.deliveries import now
from tests.subscriptions.conftest import Api

COMMITTED = Path(__file__).resolve().parents[2] / "schemas" / "openapi.json"
DOCUMENT = json.loads(COMMITTED.read_text(encoding="utf-8"))
BASE = "/v1/subscriptions/{id}"
ROUTES = {  # method, path → operation id, the success it documents, whether it takes X-Idempotency
    ("get", "/deliveries"): ("listSubscriptionDeliveries", "200", False),
    ("get", "/deliveries/{job_id}"): ("getSubscriptionDelivery", "200", False),
    ("post", "/deliveries/{job_id}/resend"): ("resendSubscriptionDelivery", "201", True),
    ("post", "/recover"): ("recoverSubscriptionDeliveries", "202", True),
    ("get", "/recoveries/{rid}"): ("getSubscriptionRecovery", "200", False),
}


def operation(method: str, path: str) -> dict:
    return DOCUMENT["paths"][BASE + path][method]


def response_schema(method: str, path: str, status: str) -> dict:
    content = operation(method, path)["responses"][status]["content"]
    media = "application/json" if "application/json" in content else "application/problem+json"
    return {**content[media]["schema"], "components": DOCUMENT["components"]}


def test_the_extension_list_is_these_routes():
    assert {operation_id for operation_id, _, _ in ROUTES.values()} == DELIVERY_LOG_OPERATIONS


@pytest.mark.parametrize(("method", "path"), sorted(ROUTES))
def test_every_route_is_documented_with_its_answers(method, path):
    operation_id, success, keyed = ROUTES[(method, path)]
    spec = operation(method, path)
    assert spec["operationId"] == operation_id and success in spec["responses"]
    assert {"401", "403", "404", "500"} <= set(spec["responses"])
    assert ("429" in spec["responses"]) is (method == "get")  # reads are metered
    names = [parameter["name"] for parameter in spec["parameters"]]
    assert len(names) == len(set(names)) and "id" in names and ("X-Idempotency" in names) is keyed
    assert "BearerAuth" in json.dumps(spec.get("security", []))
    if method == "post":
        assert "409" in spec["responses"] and "X-Idempotency-Replayed" in spec["responses"][success]["headers"]


def test_list_parameters_and_recover_body():
    names = {parameter["name"] for parameter in operation("get", "/deliveries")["parameters"]}
    assert names >= {"state", "outcome", "event_type", "event_id", "since", "until", "limit", "after"}
    body = DOCUMENT["components"]["schemas"]["RecoverRequest"]
    assert set(body["properties"]) == {"since", "until", "outcomes"} and body["required"] == ["since"]


def test_real_answers_match_the_document(api: Api, sub: str, tenant: str) -> None:
    job = seed_job(tenant, sub, at=now() - timedelta(hours=1), outcomes=(Outcome.failed, Outcome.dead_lettered))
    auth = api.headers(None)
    listed = api.client.get(f"/v1/subscriptions/{sub}/deliveries", headers=auth)
    jsonschema.validate(listed.json(), response_schema("get", "/deliveries", "200"))
    one = api.client.get(f"/v1/subscriptions/{sub}/deliveries/{job['id']}", headers=auth)
    jsonschema.validate(one.json(), response_schema("get", "/deliveries/{job_id}", "200"))
    resent = api.client.post(f"/v1/subscriptions/{sub}/deliveries/{job['id']}/resend", headers=api.headers())
    assert resent.status_code == 201, resent.text
    jsonschema.validate(resent.json(), response_schema("post", "/deliveries/{job_id}/resend", "201"))
    accepted = api.client.post(f"/v1/subscriptions/{sub}/recover", headers=api.headers(),
                               json={"since": (now() - timedelta(days=1)).isoformat()})
    jsonschema.validate(accepted.json(), response_schema("post", "/recover", "202"))
    progress = api.client.get(accepted.headers["location"], headers=auth)
    jsonschema.validate(progress.json(), response_schema("get", "/recoveries/{rid}", "200"))
    missing = api.client.get(f"/v1/subscriptions/{sub}/deliveries/{sub}", headers=auth)
    jsonschema.validate(missing.json(), response_schema("get", "/deliveries/{job_id}", "404"))
