"""Compare one operation of the app's OpenAPI document with the same operation in the contract.

Each check takes the two operations and returns a list of human-readable mismatches (empty when
they agree). ``CHECKS`` names them, so a test can report "getCatalog fails status codes: ...".
Both documents are walked with their ``$ref``s resolved.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.contract.documents import METHODS, Operation, load_contract, operations, resolve

__all__ = ["CHECKS", "METHODS", "Operation", "load_contract", "mismatches", "operations", "resolve"]

WATCHED_HEADERS = frozenset({"x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset",
                             "x-idempotency-replayed", "cache-control", "retry-after"})
MAX_DEPTH = 8


def check_route(app: Operation, contract: Operation) -> list[str]:
    if (app.method, app.path) != (contract.method, contract.path):
        return [f"route is {app.method.upper()} {app.path}, contract says {contract.method.upper()} {contract.path}"]
    return []


def _parameters(op: Operation) -> set[tuple[str, str, bool]]:
    params = (op.resolve(param) for param in op.spec.get("parameters", []))
    return {(p["name"].lower() if p["in"] == "header" else p["name"], p["in"], bool(p.get("required", False)))
            for p in params}


def check_parameters(app: Operation, contract: Operation) -> list[str]:
    ours, theirs = _parameters(app), _parameters(contract)
    return ([f"parameter {p} not in the contract" for p in sorted(ours - theirs)]
            + [f"contract parameter {p} missing" for p in sorted(theirs - ours)])


Facts = tuple[frozenset[str], frozenset[str], str]


def facts(document: dict[str, Any], schema: Any) -> Facts:
    """A schema's JSON types, enum values and format, a nullable ``anyOf``/``oneOf`` folded in.

    ``type: [string, "null"]`` and ``anyOf: [{type: string}, {type: "null"}]`` say the same thing, so
    both give ``({"string", "null"}, …)``; enum values are compared as their JSON text.
    """
    schema = resolve(document, schema)
    if not isinstance(schema, dict):
        return frozenset(), frozenset(), ""
    types: set[str] = set()
    enum: set[str] = set()
    fmt = schema.get("format", "")
    declared = schema.get("type")
    types.update([declared] if isinstance(declared, str) else declared or [])
    if "const" in schema:
        enum.add(json.dumps(schema["const"]))
    enum.update(json.dumps(value) for value in schema.get("enum", []))
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in schema.get(key, []):
            branch_types, branch_enum, branch_format = facts(document, branch)
            types |= branch_types
            enum |= branch_enum
            fmt = fmt or branch_format
    if enum and "null" in types:
        enum.add("null")  # a nullable enum: null is one of its values whichever way it is written
    return frozenset(types), frozenset(enum), fmt


def _describe(found: Facts) -> str:
    types, enum, fmt = found
    text = "|".join(sorted(types)) or "any"
    if fmt:
        text += f" ({fmt})"
    if enum:
        text += " enum " + ",".join(sorted(enum))
    return text


def _compare_facts(label: str, ours: Facts, theirs: Facts) -> list[str]:
    return [] if ours == theirs else [f"{label}: {_describe(ours)}, contract says {_describe(theirs)}"]


def _parameter_schemas(op: Operation) -> dict[tuple[str, str], Facts]:
    params = (op.resolve(param) for param in op.spec.get("parameters", []))
    return {(p["name"].lower() if p["in"] == "header" else p["name"], p["in"]): facts(op.document, p.get("schema"))
            for p in params}


def check_parameter_types(app: Operation, contract: Operation) -> list[str]:
    """Each parameter both declare has the contract's types, enum and format."""
    ours, theirs = _parameter_schemas(app), _parameter_schemas(contract)
    problems = []
    for key in sorted(set(ours) & set(theirs)):
        problems += _compare_facts(f"parameter {key[1]} {key[0]}", ours[key], theirs[key])
    return problems


def check_status_codes(app: Operation, contract: Operation) -> list[str]:
    ours, theirs = set(app.spec.get("responses", {})), set(contract.spec.get("responses", {}))
    return ([f"status {code} not declared by the contract" for code in sorted(ours - theirs)]
            + [f"contract status {code} not declared" for code in sorted(theirs - ours)])


def _security(op: Operation) -> list[list[str]]:
    requirements = op.spec.get("security", op.document.get("security", []))
    return sorted(sorted(requirement) for requirement in requirements)


def check_security(app: Operation, contract: Operation) -> list[str]:
    ours, theirs = _security(app), _security(contract)
    return [] if ours == theirs else [f"security is {ours or 'none'}, contract says {theirs or 'none'}"]


def _headers(op: Operation, status: str) -> set[str]:
    response = op.resolve(op.spec.get("responses", {}).get(status, {}))
    return {name.lower() for name in response.get("headers", {})} & WATCHED_HEADERS


def check_response_headers(app: Operation, contract: Operation) -> list[str]:
    problems = []
    for status in sorted(set(contract.spec.get("responses", {})) | set(app.spec.get("responses", {}))):
        ours, theirs = _headers(app, status), _headers(contract, status)
        problems += [f"{status}: header {name} not declared by the contract" for name in sorted(ours - theirs)]
        problems += [f"{status}: contract header {name} not declared" for name in sorted(theirs - ours)]
    return problems


def _object_parts(document: dict[str, Any], schema: Any) -> list[dict[str, Any]]:
    """The object schemas that ``schema`` is made of (allOf merged, a nullable anyOf/oneOf unwrapped)."""
    schema = resolve(document, schema)
    if not isinstance(schema, dict):
        return []
    if "allOf" in schema:
        return [part for sub in schema["allOf"] for part in _object_parts(document, sub)]
    for key in ("anyOf", "oneOf"):
        branches = [resolve(document, s) for s in schema.get(key, [])]
        non_null = [s for s in branches if s.get("type") != "null"]
        if len(non_null) == 1:
            return _object_parts(document, non_null[0])
    return [schema]


Shape = dict[str, tuple[frozenset[str], frozenset[str]]]


def shape(document: dict[str, Any], schema: Any, where: str = "", depth: int = 0) -> Shape:
    """Property names and required list of every object inside ``schema``, keyed by its location."""
    parts = _object_parts(document, schema)
    found: Shape = {}
    properties: dict[str, Any] = {}
    required: set[str] = set()
    for part in parts:
        properties.update(part.get("properties", {}))
        required.update(part.get("required", []))
        if "items" in part and depth < MAX_DEPTH:
            found.update(shape(document, part["items"], f"{where}[]", depth + 1))
    if properties or required:
        found[where or "/"] = (frozenset(properties), frozenset(required))
    if depth < MAX_DEPTH:
        for name, sub in properties.items():
            found.update(shape(document, sub, f"{where}/{name}", depth + 1))
    return found


def typed_shape(document: dict[str, Any], schema: Any, where: str = "", depth: int = 0) -> dict[str, Facts]:
    """The types, enum and format (``facts``) of ``schema`` and of everything inside it, by location."""
    found = {where or "/": facts(document, schema)}
    if depth >= MAX_DEPTH:
        return found
    properties: dict[str, Any] = {}
    for part in _object_parts(document, schema):
        properties.update(part.get("properties", {}))
        if "items" in part:
            found.update(typed_shape(document, part["items"], f"{where}[]", depth + 1))
    for name, sub in properties.items():
        found.update(typed_shape(document, sub, f"{where}/{name}", depth + 1))
    return found


def _compare_types(label: str, ours: dict[str, Facts], theirs: dict[str, Facts]) -> list[str]:
    """Locations both documents have must agree; a missing or extra one is ``_compare_shapes``' finding."""
    problems = []
    for where in sorted(set(ours) & set(theirs)):
        problems += _compare_facts(f"{label} {where}", ours[where], theirs[where])
    return problems


def _compare_shapes(label: str, ours: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    problems = []
    for where in sorted(set(ours) | set(theirs)):
        if where not in theirs:
            problems.append(f"{label} {where}: object not in the contract")
            continue
        if where not in ours:
            problems.append(f"{label} {where}: contract object missing")
            continue
        (our_props, our_required), (their_props, their_required) = ours[where], theirs[where]
        if our_props != their_props:
            problems.append(f"{label} {where}: properties +{sorted(our_props - their_props)} "
                            f"-{sorted(their_props - our_props)}")
        if our_required != their_required:
            problems.append(f"{label} {where}: required +{sorted(our_required - their_required)} "
                            f"-{sorted(their_required - our_required)}")
    return problems


def _content_schemas(op: Operation, node: Any) -> dict[str, Any]:
    content = op.resolve(node).get("content", {}) if node else {}
    return {media: body.get("schema") for media, body in content.items()}


def _compare_content(label: str, app: Operation, ours: Any, contract: Operation, theirs: Any) -> list[str]:
    our_media, their_media = _content_schemas(app, ours), _content_schemas(contract, theirs)
    problems = [f"{label}: media type {media} not in the contract"
                for media in sorted(set(our_media) - set(their_media))]
    problems += [f"{label}: contract media type {media} missing" for media in sorted(set(their_media) - set(our_media))]
    for media in sorted(set(our_media) & set(their_media)):
        problems += _compare_shapes(f"{label} {media}", shape(app.document, our_media[media]),
                                    shape(contract.document, their_media[media]))
        problems += _compare_types(f"{label} {media}", typed_shape(app.document, our_media[media]),
                                   typed_shape(contract.document, their_media[media]))
    return problems


def check_request_schema(app: Operation, contract: Operation) -> list[str]:
    ours, theirs = app.spec.get("requestBody"), contract.spec.get("requestBody")
    problems = []
    if bool(ours) != bool(theirs):
        return [f"request body declared: {bool(ours)}, contract: {bool(theirs)}"]
    if ours and bool(app.resolve(ours).get("required")) != bool(contract.resolve(theirs).get("required")):
        problems.append("request body required flag differs")
    return problems + _compare_content("request", app, ours, contract, theirs)


def check_response_schemas(app: Operation, contract: Operation) -> list[str]:
    problems = []
    our_responses, their_responses = app.spec.get("responses", {}), contract.spec.get("responses", {})
    for status in sorted(set(our_responses) & set(their_responses)):
        problems += _compare_content(f"response {status}", app, our_responses[status], contract,
                                     their_responses[status])
    return problems


Check = Callable[[Operation, Operation], list[str]]
CHECKS: dict[str, Check] = {
    "route": check_route,
    "parameters": check_parameters,
    "parameter types": check_parameter_types,
    "status codes": check_status_codes,
    "security": check_security,
    "response headers": check_response_headers,
    "request schema": check_request_schema,
    "response schemas": check_response_schemas,
}


def mismatches(app_document: dict[str, Any], contract_document: dict[str, Any], operation_id: str,
               check: str) -> list[str]:
    """What ``check`` finds wrong with ``operation_id`` in the app's document."""
    ours, theirs = operations(app_document), operations(contract_document)
    if operation_id not in ours:
        return [f"{operation_id} is not built (no such operationId in the app)"]
    return CHECKS[check](ours[operation_id], theirs[operation_id])
