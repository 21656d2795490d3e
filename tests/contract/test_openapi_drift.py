"""The committed ``schemas/openapi.json`` is exactly what the app generates, and is a valid OpenAPI 3.1
document; the typed comparison that tests/contract/test_operations.py runs finds a wrong type."""

from __future__ import annotations

import copy
import difflib
import json
from pathlib import Path

from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from hub.apidocs import render_openapi
from hub.app import create_app
from tests.contract.compare import load_contract, mismatches

COMMITTED = Path(__file__).resolve().parents[2] / "schemas" / "openapi.json"


def test_committed_openapi_document_matches_the_app():
    """A stale or missing file fails, naming the fix (`make openapi`)."""
    generated = render_openapi(create_app())
    assert COMMITTED.exists(), "schemas/openapi.json is missing: run `make openapi` and commit it"
    committed = COMMITTED.read_text(encoding="utf-8")
    if committed != generated:
        lines = difflib.unified_diff(committed.splitlines(keepends=True), generated.splitlines(keepends=True),
                                     "schemas/openapi.json (committed)", "generated from the app")
        diff = "".join(list(lines)[:60])
        raise AssertionError(f"schemas/openapi.json is stale: run `make openapi` and commit it\n{diff}")


def test_generation_is_stable():
    """Two fresh apps render byte-identical documents (sorted keys, one final newline)."""
    first, second = render_openapi(create_app()), render_openapi(create_app())
    assert first == second and first.endswith("}\n") and not first.endswith("\n\n")


def test_committed_document_is_valid_openapi():
    """openapi-spec-validator accepts the committed file (no `default: null` on a non-null schema)."""
    validate(json.loads(COMMITTED.read_text(encoding="utf-8")))


def test_validator_refuses_a_default_that_breaks_its_schema():
    """The check above can fail: the defect it guards against is an error to the validator."""
    document = json.loads(COMMITTED.read_text(encoding="utf-8"))
    properties = document["components"]["schemas"]["CreateSubscriptionRequest"]["properties"]
    properties["endpoint"]["default"] = None
    try:
        validate(document)
    except OpenAPIValidationError:
        return
    raise AssertionError("a `default: null` on a string property passed the validator")


def _list_parameters(document: dict) -> list[dict]:
    return document["paths"]["/v1/subscriptions"]["get"]["parameters"]


def test_typed_comparison_finds_a_parameter_typed_as_a_string():
    """A query parameter declared a plain string where the contract has a boolean is reported."""
    document = copy.deepcopy(create_app().openapi())
    enabled = next(p for p in _list_parameters(document) if p["name"] == "enabled")
    enabled["schema"] = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    found = mismatches(document, load_contract(), "listSubscriptions", "parameter types")
    assert found == ["parameter query enabled: null|string, contract says boolean"]


def test_typed_comparison_finds_a_missing_enum_and_format():
    """A response property without the contract's enum or format is reported."""
    document = copy.deepcopy(create_app().openapi())
    schemas = document["components"]["schemas"]
    schemas["SubscriptionHealth"]["properties"]["verification_state"] = {"type": "string"}
    schemas["SubscriptionHealth"]["properties"]["subscription_id"] = {"type": "string"}
    found = mismatches(document, load_contract(), "getSubscriptionHealth", "response schemas")
    assert sorted(found) == [
        "response 200 application/json /subscription_id: string, contract says string (uuid)",
        'response 200 application/json /verification_state: string, contract says string enum '
        '"active","degraded","pending_verification"',
    ]
