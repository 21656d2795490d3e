"""The event broker's REST routes under ``/api/{domain}/event`` (seed 003), thin over the services."""

from __future__ import annotations

import time
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Request, Response, Security, WebSocket

from hub import apidocs as docs
from hub.auth.credentials import read_credential
from hub.auth.deps import authenticate
from hub.auth.tokens import Principal
from hub.broker import configs, history, tree
from hub.broker.access import DATA, PUBLISH, PURGE, READ, TOPICS, WRITE, BrokerCaller, broker_caller
from hub.broker.live import subscribe_socket
from hub.broker.inputs import config_input, publish_input, purge_params, read_params, topic_of
from hub.broker.publish import publish_event
from hub.broker.schemas import (
    BrokerHistory, PublishBody, PublishedEvent, PurgeCount, TopicConfigAnswer, TopicConfigBody, TopicConfigList,
)
from hub.bodies import request_body_doc
from hub.broker.window import effective_window
from hub.db import SessionDep, get_engine

PREFIX, TAGS = "/api/{domain}/event", ["Event Broker"]
router = APIRouter(prefix=PREFIX, tags=TAGS, dependencies=[Security(docs.bearer_scheme)])
# The publish operation, one request per event, is served plain (hub.plainroutes, N66, N81): its token is
# read in the endpoint, and its security and path parameters are documented as the router's would be.
publish_router = APIRouter(prefix=PREFIX, tags=TAGS)


def caller(domain: str, principal: Annotated[Principal, Depends(authenticate)]) -> BrokerCaller:
    """The broker caller: a token of this domain's tenant (403 ``domain_mismatch`` otherwise)."""
    return broker_caller(principal, domain)


CallerDep = Annotated[BrokerCaller, Depends(caller)]

ERRORS: dict[int | str, dict[str, Any]] = {
    401: docs.UNAUTHORIZED,
    403: docs.problem("`domain_mismatch` (the path's domain is not the token's tenant), or `forbidden` "
                      "(the `event_broker` claim lacks the flag on the Main Topic)."),
    422: docs.problem("`validation_error`: `errors[]` names each bad field (docs/contract-notes.md N34)."),
    500: docs.INTERNAL,
}
WITH_BODY = {**ERRORS, 400: docs.problem("The body is not JSON: `bad_request`.")}
TYPE = {"name": "type", "in": "query", "required": False, "schema": {"type": "string"},
        "description": "Only events of this type."}


def _instant(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": {"type": "integer", "format": "int64"},
            "description": description}


READ_PARAMETERS = docs.parameters(
    TYPE, {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer"},
           "description": "1-1000, default 100."},
    _instant("until", "Only events with `ts` below this (ms). To page back, pass the oldest `ts` received; "
                      "pass `ts + 1` and drop known ids when several events share that millisecond."))
PURGE_PARAMETERS = docs.parameters(TYPE, _instant("since", "Only events with `ts` at or after this (ms)."),
                                   _instant("until", "Only events with `ts` below this (ms)."))


async def body_bytes(request: Request) -> bytes:
    """The raw body, read on the event loop (a sync route cannot await it); parsed after the checks."""
    return await request.body()


def _json(body: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type="application/json")


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _path_parameter(name: str) -> dict[str, Any]:
    return docs.path_parameter(name, {"type": "string", "title": name.title()})


PUBLISH_DOC = {**request_body_doc(PublishBody), "security": [{docs.bearer_scheme.scheme_name: []}],
               **docs.parameters(_path_parameter("topic"), _path_parameter("domain"))}


@publish_router.post("/data/{topic}", operation_id="brokerPublish", status_code=201, response_model=PublishedEvent,
                     responses={**WITH_BODY, 503: docs.problem("`event_not_stored` or `service_unavailable`: retry.")},
                     openapi_extra=PUBLISH_DOC)
async def publish(request: Request) -> Response:
    """Publish an event on exactly the topic; 201 once it is stored (read-your-writes)."""
    principal = read_credential(request.headers.get("authorization")).principal
    request.state.principal = principal  # as hub.auth.deps.authenticate leaves it for the request's log
    who = broker_caller(principal, request.path_params["domain"])
    parsed = topic_of(request.path_params["topic"])
    who.require(parsed.main, DATA, PUBLISH)
    body = publish_input(await request.body(), request.headers.get("content-type"))
    event = await publish_event(engine=get_engine(), tenant_id=who.tenant_id, topic=parsed,
                                event_type=body.event_type, data=body.data)
    return _json({"data": event}, 201)


PLAIN_ENDPOINTS = (publish,)


@router.get("/data/{topic}", operation_id="brokerHistory", response_model=BrokerHistory, responses=ERRORS,
            openapi_extra=READ_PARAMETERS)
def read_history(topic: str, request: Request, who: CallerDep, session: SessionDep) -> Response:
    """The retained events of the topic and its sub-topics, newest first."""
    parsed = topic_of(topic)
    who.require(parsed.main, DATA, READ)
    filters, limit = read_params(request.query_params)
    items = history.history(session, tenant_id=who.tenant_id, topic=parsed, filters=filters, limit=limit,
                            now_ms=_now_ms())
    return _json({"data": items})


@router.delete("/data/{topic}", operation_id="brokerPurge", response_model=PurgeCount, responses=ERRORS,
               openapi_extra=PURGE_PARAMETERS)
def purge_history(topic: str, request: Request, who: CallerDep, session: SessionDep) -> Response:
    """Delete the retained events of the topic's subtree (optional type, since, until)."""
    parsed = topic_of(topic)
    who.require(parsed.main, DATA, PURGE)
    filters = purge_params(request.query_params)
    deleted = history.purge(session, tenant_id=who.tenant_id, topic=parsed, filters=filters)
    session.commit()
    return _json({"data": {"deleted": deleted}})


@router.get("/topics", operation_id="brokerListConfigs", response_model=TopicConfigList, responses=ERRORS)
def list_configs(who: CallerDep, session: SessionDep) -> Response:
    """The stored configs the caller may read, ordered by topic."""
    windows = configs.list_configs(session, tenant_id=who.tenant_id)
    return _json({"data": [configs.window_body(w) for w in windows if who.may(w.topic, TOPICS, READ)]})


@router.put("/topics/{topic}", operation_id="brokerPutConfig", response_model=TopicConfigAnswer, responses=WITH_BODY,
            openapi_extra=request_body_doc(TopicConfigBody))
def put_config(topic: str, request: Request, raw: Annotated[bytes, Depends(body_bytes)], who: CallerDep,
               session: SessionDep) -> Response:
    """Replace the Main Topic's config: an omitted bound is null (unbounded)."""
    parsed = topic_of(topic, main_only=True)
    who.require(parsed.main, TOPICS, WRITE)
    body = config_input(raw, request.headers.get("content-type"))
    window = configs.put_config(session, tenant_id=who.tenant_id, topic=parsed.main,
                                max_events=body.max_events, ttl_seconds=body.ttl_seconds)
    return _json({"data": configs.window_body(window)})


@router.get("/topics/{topic}", operation_id="brokerGetConfig", response_model=TopicConfigAnswer, responses=ERRORS)
def get_config(topic: str, who: CallerDep, session: SessionDep) -> Response:
    """The Main Topic's effective window (``default: true`` when nothing is stored)."""
    parsed = topic_of(topic, main_only=True)
    who.require(parsed.main, TOPICS, READ)
    return _json({"data": configs.window_body(effective_window(session, tenant_id=who.tenant_id,
                                                                main_topic=parsed.main))})


@router.delete("/topics/{topic}", operation_id="brokerDeleteConfig", status_code=204, responses=ERRORS)
def delete_config(topic: str, who: CallerDep, session: SessionDep) -> Response:
    """Remove the Main Topic's config (idempotent)."""
    parsed = topic_of(topic, main_only=True)
    who.require(parsed.main, TOPICS, WRITE)
    configs.delete_config(session, tenant_id=who.tenant_id, topic=parsed.main)
    return Response(status_code=204)


TREE_PARAMETERS = docs.parameters(
    {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer"},
     "description": f"1-{tree.MAX_LIMIT}, default {tree.DEFAULT_LIMIT}."},
    {"name": "after", "in": "query", "required": False, "schema": {"type": "string"},
     "description": "The previous page's `next` (the last topic it held)."})


@router.get("/tree", operation_id="brokerTopicTree", responses=ERRORS, openapi_extra=TREE_PARAMETERS)
def topic_tree(request: Request, who: CallerDep, session: SessionDep) -> Response:
    """The domain's topics holding events (readable ones only), in byte order, with counts (extension, N76)."""
    try:
        limit = min(max(int(request.query_params.get("limit") or tree.DEFAULT_LIMIT), 1), tree.MAX_LIMIT)
    except ValueError:
        limit = tree.DEFAULT_LIMIT
    items, after = tree.topic_tree(session, tenant_id=who.tenant_id, after=request.query_params.get("after", ""),
                                   limit=limit)
    return _json({"data": [item for item in items if who.may(item["main"], DATA, READ)], "next": after})


@router.websocket("/ws")
async def live(websocket: WebSocket, domain: str) -> None:
    """Live events of ``topic`` and its sub-topics (E9); ``since`` replays from history first."""
    await subscribe_socket(websocket, domain)
