"""Issue 55, N93: a NUL in each kind of place — a path parameter, a query parameter, a header, a JSON
string (nested, and as the ``\\u0000`` escape) — sent to every operation of ``schemas/openapi.json``.

No answer is a 5xx, and each is the operation's declared bad-input answer: 422 ``validation_error``
where it declares 422, else 400 ``bad_request``, else (a path parameter) 404 ``not_found``. An
operation declaring none of them for a place reads no such text (``/health``, a query on
``GET /v1/subscriptions/{id}``): its answer must only be declared and not a 5xx. A body is checked
as the route reads it, after the gates (D1), so it is sent with a credential every gate admits.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson
import pytest
from schemathesis.python import asgi
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hub.app import create_app
from hub.auth.tokens import mint_token
from hub.broker import live
from hub.consumer.access import TRIAGE, consumer_claims
from hub.devtools.tree import DEFAULT_PERMISSIONS
from hub.inputguard import WS_BAD_INPUT
from hub.publisher.access import publish_claims
from tests.contract.fuzzing import Credentials, seed_subscriptions

DOCUMENT = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "openapi.json").read_text("utf-8"))
METHODS = ("get", "put", "post", "delete", "patch")
NUL_TEXT = "nul\x00here"
PARAMETER_ANSWERS = (("422", "validation_error"), ("400", "bad_request"))
PATH_ANSWERS = (*PARAMETER_ANSWERS, ("404", "not_found"))


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, item[method]) for path, item in sorted(DOCUMENT["paths"].items())
            for method in METHODS if method in item]


def _streams(operation: dict[str, Any]) -> bool:
    return "text/event-stream" in operation["responses"].get("200", {}).get("content", {})


def expected(operation: dict[str, Any], place: str) -> tuple[int, str] | None:
    """The declared bad-input answer of OPERATION for a NUL in PLACE, or None when it declares none."""
    answers = PATH_ANSWERS if place == "path" else PARAMETER_ANSWERS if place != "body" else (
        ("422", "validation_error"), ("400", "bad_request"))
    return next(((int(status), code) for status, code in answers if status in operation["responses"]), None)


@pytest.fixture(scope="module")
def hub() -> Any:
    """The app, a client, a tenant's token every gate admits and live path values."""
    app = create_app()
    credentials = Credentials()
    permissions, claims = consumer_claims(list(DEFAULT_PERMISSIONS), None)
    permissions, publish = publish_claims([*permissions, TRIAGE], ["*"])
    token = mint_token(tenant=credentials.tenant, permissions=permissions, operator=True,
                       claims={**claims, **publish}, event_broker={"*": {"data": "RDP", "topics": "RW"}})
    with asgi.get_client(app) as client:
        ids = seed_subscriptions(client, credentials, count=1)
        values = {"id": ids[0], "domain": credentials.tenant, "topic": "orders", "queue_id": "q-nul",
                  "job_id": str(uuid.uuid4()), "rid": str(uuid.uuid4())}
        yield client, token, values


def _call(hub: Any, method: str, path: str, operation: dict[str, Any], *, path_values: dict[str, str] | None = None,
          query: str = "", headers: dict[str, str] | None = None, body: bytes | None = None) -> Any:
    client, token, values = hub
    url = path
    for name, value in {**values, **(path_values or {})}.items():
        url = url.replace("{" + name + "}", quote(value, safe=""))
    sent = {"Authorization": f"Bearer {token}", "X-Idempotency": f"nul-{uuid.uuid4().hex}", **(headers or {})}
    if body is not None:
        sent["Content-Type"] = "application/json"
    return client.request(method.upper(), f"http://{asgi.HOST}{url}" + (f"?{query}" if query else ""),
                          headers=sent, data=body)


def _check(response: Any, operation: dict[str, Any], answer: tuple[int, str] | None, where: str) -> None:
    assert response.status_code < 500, f"{where}: {response.status_code} {response.text[:300]}"
    assert str(response.status_code) in operation["responses"], f"{where}: undeclared {response.status_code}"
    if answer is not None:
        body = orjson.loads(response.content)
        assert (response.status_code, body.get("code")) == answer, f"{where}: {response.text[:300]}"
        assert response.headers["content-type"].startswith("application/problem+json"), where


def _places(operation: dict[str, Any]) -> dict[str, list[str]]:
    parameters = operation.get("parameters", [])
    return {place: [p["name"] for p in parameters if p["in"] == place] for place in ("path", "query", "header")}


CASES = [pytest.param(method, path, operation, id=operation.get("operationId", f"{method} {path}"))
         for method, path, operation in _operations() if not _streams(operation)]


@pytest.mark.parametrize(("method", "path", "operation"), CASES)
def test_a_nul_in_every_place_gets_the_declared_bad_input_answer(hub: Any, method: str, path: str,
                                                                   operation: dict[str, Any]) -> None:
    places = _places(operation)
    label = f"{method.upper()} {path}"
    for name in places["path"]:
        response = _call(hub, method, path, operation, path_values={name: NUL_TEXT})
        _check(response, operation, expected(operation, "path"), f"{label} path/{name}")
    for name in places["query"] or ["nul_probe"]:
        response = _call(hub, method, path, operation, query=f"{name}={quote(NUL_TEXT)}")
        _check(response, operation, expected(operation, "query"), f"{label} query/{name}")
    for name in [*places["header"], "X-Nul-Probe"]:
        if name.lower() != "x-idempotency":
            response = _call(hub, method, path, operation, headers={name: NUL_TEXT})
            _check(response, operation, expected(operation, "header"), f"{label} header/{name}")
    if "requestBody" in operation:
        for body in (b'{"name": "nul\\u0000here"}', b'{"outer": {"list": [1, "x\\u0000"]}}'):
            response = _call(hub, method, path, operation, body=body)
            _check(response, operation, expected(operation, "body"), f"{label} body {body!r}")


def test_text_that_is_not_utf8_is_refused_like_a_nul(hub: Any) -> None:
    operation = DOCUMENT["paths"]["/v1/durable-queues"]["get"]
    _check(_call(hub, "get", "/v1/durable-queues", operation, query="after=%FF%FE"), operation,
           (422, "validation_error"), "query not UTF-8")
    operation = DOCUMENT["paths"]["/v1/subscriptions/{id}"]["get"]
    _check(_call(hub, "get", "/v1/subscriptions/%FF", operation), operation, (404, "not_found"), "path not UTF-8")


def test_a_live_subscription_with_a_nul_is_closed_with_4422(hub: Any) -> None:
    """Seed 003's live subscribers (N35): bad input closes the socket with 4422 ``validation_error``."""
    _, token, values = hub
    app = create_app()
    with TestClient(app) as client:
        for query in (f"topic=ord%00ers&token={token}", f"topic=orders&since=1%00&token={token}",
                      f"topic=orders&token={token}&x=%FF"):
            with pytest.raises(WebSocketDisconnect) as refused, \
                    client.websocket_connect(f"/api/{values['domain']}/event/ws?{query}") as socket:
                socket.receive_text()
            assert (refused.value.code, refused.value.reason.split(":")[0]) == (WS_BAD_INPUT, "validation_error")
    assert WS_BAD_INPUT == live.INVALID
