"""The one guard on the text a request carries (N93): a NUL byte, or bytes that are not UTF-8, never
reach an operation (PostgreSQL text cannot hold a NUL, and every text may end in a query).

``InputGuard`` is an ASGI middleware, so it sees every request of the API, the plain routes and the
WebSocket included:

- the path, the query and the headers are checked when the request enters; a fault answers at once
  with the bad-input answer the matched operation declares (:func:`declared_answer`);
- the body is checked as the route reads it (after the gates, as D1 orders body checks): a raw NUL
  byte, or a JSON ``\\u0000`` escape that decodes to a NUL inside a string or a key, raises
  :class:`BadInput` from ``receive``, which the app's error handlers turn into that same answer;
- a WebSocket subscription is accepted and closed with ``WS_BAD_INPUT`` (N35's 4422).

The hot path pays one ``isascii`` per header and two ``in`` scans of the body.
"""

from __future__ import annotations

import re
import weakref
from typing import Any
from urllib.parse import unquote_to_bytes

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hub.errors import HubError
from hub.problems import problem_response

#: The close code N35 gives a refused subscription whose input is invalid (hub.broker.live.INVALID).
WS_BAD_INPUT = 4422
NUL, NUL_ESCAPE = b"\x00", b"\\u0000"
#: The bad-input answers in preference order: (declared status, code); a path also may be a 404.
PARAMETER_ANSWERS = (("422", "validation_error"), ("400", "bad_request"))
PATH_ANSWERS = (*PARAMETER_ANSWERS, ("404", "not_found"))


class BadInput(HubError):
    """A text input the hub refuses; status and code are the operation's declared bad-input answer."""

    status, code, default_detail = 422, "validation_error", "a text input holds a NUL byte or is not UTF-8"


def text_fault(raw: bytes) -> str | None:
    """Why RAW cannot be a text input (a NUL byte, or not UTF-8), or None when it can."""
    if NUL in raw:
        return "holds a NUL byte"
    if raw.isascii():
        return None
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return "is not valid UTF-8"
    return None


def _shown(raw: bytes) -> str:
    """A name fit for a problem's ``location`` whatever its bytes."""
    return raw.decode("utf-8", "replace").replace("\x00", "\ufffd")


def _path_fault(scope: Scope) -> tuple[str, str] | None:
    raw = (scope.get("raw_path") or scope.get("path", "").encode("utf-8", "surrogateescape")).split(b"?", 1)[0]
    reason = text_fault(unquote_to_bytes(raw) if b"%" in raw else raw)
    if reason is None and "\x00" in scope.get("path", ""):
        reason = "holds a NUL byte"
    return ("path", reason) if reason else None


def _query_fault(query: bytes) -> tuple[str, str] | None:
    if not query or (query.isascii() and b"%" not in query and NUL not in query):
        return None
    for pair in query.split(b"&"):
        name, _, value = pair.replace(b"+", b" ").partition(b"=")
        name, value = unquote_to_bytes(name), unquote_to_bytes(value)
        reason = text_fault(name) or text_fault(value)
        if reason:
            return f"query/{_shown(name)}", reason
    return None


def _header_fault(headers: list[tuple[bytes, bytes]]) -> tuple[str, str] | None:
    for name, value in headers:
        if not value.isascii() or NUL in value:
            reason = text_fault(value)
            if reason:
                return f"header/{_shown(name)}", reason
    return None


def entry_fault(scope: Scope) -> tuple[str, str] | None:
    """The first (location, reason) of a bad text in the path, the query or the headers, else None."""
    return (_path_fault(scope) or _query_fault(scope.get("query_string", b""))
            or _header_fault(scope.get("headers", [])))


def nul_location(value: Any, where: str = "body") -> str | None:
    """The JSON-pointer-like location of the first string or key holding a NUL in VALUE, else None."""
    if isinstance(value, str):
        return where if "\x00" in value else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(key, str) and "\x00" in key:
            return where
        found = nul_location(item, f"{where}/{key}")
        if found:
            return found
    return None


def body_fault(body: bytes) -> tuple[str, str] | None:
    """The (location, reason) of a NUL in a body: a raw byte, or an escape decoding to one in JSON."""
    if NUL in body:
        return "body", "holds a NUL byte"
    if NUL_ESCAPE not in body:
        return None
    try:
        parsed = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None  # not JSON: the route's own parser answers 400 bad_request (D1)
    location = nul_location(parsed)
    return (location.replace("\x00", "\ufffd"), "holds a NUL character") if location else None


def _answer_of(responses: dict[str, Any], answers: tuple[tuple[str, str], ...]) -> tuple[int, str] | None:
    return next(((int(status), code) for status, code in answers if status in responses), None)


_OPERATIONS: weakref.WeakKeyDictionary[Any, tuple[tuple[re.Pattern[str], dict[str, Any]], ...]] = (
    weakref.WeakKeyDictionary())


def _operations(app: Any) -> tuple[tuple[re.Pattern[str], dict[str, Any]], ...]:
    """APP's documented path templates as patterns with their operations, the most literal first (built
    on the first refusal, then kept as long as APP lives)."""
    if app not in _OPERATIONS:
        _OPERATIONS[app] = _patterns(app.openapi().get("paths", {}))
    return _OPERATIONS[app]


def _patterns(paths: dict[str, Any]) -> tuple[tuple[re.Pattern[str], dict[str, Any]], ...]:
    ordered = sorted(paths, key=lambda template: (template.count("{"), template))
    return tuple((re.compile("^" + re.sub(r"\\{[^/]+?\\}", "[^/]+", re.escape(template)) + "$"), paths[template])
                 for template in ordered)


def declared_answer(app: Any, scope: Scope, place: str) -> tuple[int, str] | None:
    """The bad-input answer the operation serving SCOPE declares: 422 ``validation_error``, else 400
    ``bad_request``, else (for a path) 404 ``not_found``; None when it declares none, or no documented
    operation serves the request (an operation declaring none reads no text but its credential, N93)."""
    if not hasattr(app, "openapi"):
        return None
    method, path = scope.get("method", "").lower(), scope.get("path", "")
    operation = next((item[method] for pattern, item in _operations(app)
                      if method in item and pattern.match(path)), None)
    if not isinstance(operation, dict):
        return None
    return _answer_of(operation.get("responses", {}), PATH_ANSWERS if place == "path" else PARAMETER_ANSWERS)


def bad_input(app: Any, scope: Scope, fault: tuple[str, str]) -> BadInput | None:
    """The error refusing FAULT on the operation of SCOPE, or None when the operation declares no answer."""
    location, reason = fault
    answer = declared_answer(app, scope, "path" if location == "path" else "parameter")
    if answer is None:
        return None
    status, code = answer
    detail = f"{location} {reason}" if status != 404 else "the resource was not found"
    errors = [{"location": location, "message": reason}] if status == 422 else None
    return BadInput(detail, status=status, code=code, errors=errors)


class InputGuard:
    """ASGI middleware refusing text inputs with a NUL or not UTF-8, on every route and the WebSocket."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        fault = entry_fault(scope)
        if fault and scope["type"] == "websocket":
            await _close_socket(receive, send, fault)
            return
        error = bad_input(scope.get("app"), scope, fault) if fault else None
        if error is not None:
            response = problem_response(error.status, code=error.code, detail=error.detail, errors=error.errors)
            await response(scope, receive, send)
            return
        await self.app(scope, _guarded_body(scope, receive) if scope["type"] == "http" else receive, send)


def _guarded_body(scope: Scope, receive: Receive) -> Receive:
    """RECEIVE, raising :class:`BadInput` when the whole body holds a NUL (checked once, at its end)."""
    pending = bytearray()

    async def guarded_receive() -> Message:
        message = await receive()
        if message["type"] != "http.request":
            return message
        body = message.get("body", b"")
        if pending or message.get("more_body", False):
            pending.extend(body)  # a chunked body: an escape may straddle two chunks
            if message.get("more_body", False):
                return message
            body = bytes(pending)
        if NUL in body or NUL_ESCAPE in body:
            fault = body_fault(body)
            error = bad_input(scope.get("app"), scope, fault) if fault else None
            if error is not None:
                raise error
        return message

    return guarded_receive


async def _close_socket(receive: Receive, send: Send, fault: tuple[str, str]) -> None:
    """Accept, then close with 4422, as N35 refuses a subscription whose input is invalid."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    reason = f"validation_error: {fault[0]} {fault[1]}"[:120]
    await send({"type": "websocket.close", "code": WS_BAD_INPUT, "reason": reason})
