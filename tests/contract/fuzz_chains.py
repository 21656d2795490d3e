"""The stateful phases of ``make fuzz`` beyond the contract (issue 55): chains in which a created
resource is used by the next calls, run by the same state machine as the contract's subscription chain,
against the hub's own document.

- delivery options and blocked keys: a subscription → its options (put, get) → its blocked keys (list,
  resume) → the delete;
- the delivery log, resend and recover: a subscription → its deliveries (list, one, resend) → a recovery
  → that recovery's read;
- seed 000's durable queues: a queue → its read (``/v1/durable-queues``), its re-filter, its delete;
- seed 003's topics: a topic's configuration → its read, the history, the purge, the tree, the delete.

The links say where each id comes from; ``prepare`` makes about half of the roots valid (a generated
create rarely is), puts the tenant in ``{domain}`` most of the time, and makes names unique so a replayed
scenario does not meet its own earlier create.
"""

from __future__ import annotations

import copy
import uuid
from typing import Any

SUBSCRIPTION = "$response.body#/subscription/id"
SAME_ID = "$request.path.id"


def _path(**names: str) -> dict[str, Any]:
    return {"parameters": {f"path.{name}": expression for name, expression in names.items()}}


TOPIC = _path(domain="$request.path.domain", topic="$request.path.topic")
QUEUE = "$response.body#/queue_id"
#: (source operation, status) → {target operation: link}; a link carries ``parameters`` and/or ``requestBody``.
CHAIN_LINKS: dict[tuple[str, str], dict[str, dict[str, Any]]] = {
    ("createSubscription", "201"): {
        **{target: _path(id=SUBSCRIPTION) for target in (
            "putSubscriptionDeliveryOptions", "getSubscriptionDeliveryOptions", "listSubscriptionBlockedKeys",
            "resumeSubscriptionBlockedKey", "listSubscriptionDeliveries", "recoverSubscriptionDeliveries")}},
    ("putSubscriptionDeliveryOptions", "200"): {
        target: _path(id=SAME_ID) for target in (
            "getSubscriptionDeliveryOptions", "listSubscriptionBlockedKeys", "resumeSubscriptionBlockedKey",
            "deleteSubscription")},
    ("resumeSubscriptionBlockedKey", "200"): {"listSubscriptionBlockedKeys": _path(id=SAME_ID)},
    ("listSubscriptionDeliveries", "200"): {
        target: _path(id=SAME_ID, job_id="$response.body#/deliveries/0/id")
        for target in ("getSubscriptionDelivery", "resendSubscriptionDelivery")},
    ("recoverSubscriptionDeliveries", "202"): {
        "getSubscriptionRecovery": _path(id=SAME_ID, rid="$response.body#/recovery/id"),
        "listSubscriptionDeliveries": _path(id=SAME_ID)},
    **{("createDurableQueue", status): {
        "getDurableQueue": _path(queue_id=QUEUE),
        "updateDurableQueue": {"requestBody": {"queue_id": QUEUE}},
        "deleteDurableQueue": {"parameters": {"query.queue_id": QUEUE}}} for status in ("200", "201")},
    ("updateDurableQueue", "200"): {
        "getDurableQueue": _path(queue_id="$request.body#/queue_id"),
        "deleteDurableQueue": {"parameters": {"query.queue_id": "$request.body#/queue_id"}}},
    ("deleteDurableQueue", "200"): {"getDurableQueue": _path(queue_id="$request.query.queue_id")},
    ("brokerPutConfig", "200"): {
        **{target: TOPIC for target in ("brokerGetConfig", "brokerHistory", "brokerPurge", "brokerDeleteConfig")},
        "brokerTopicTree": _path(domain="$request.path.domain"),
        "brokerListConfigs": _path(domain="$request.path.domain")},
    ("brokerDeleteConfig", "204"): {"brokerGetConfig": TOPIC},
}
#: One state machine per family: schemathesis starts scenarios only at its likeliest roots (a POST), so in one
#: machine the subscription's create would start them all and a PUT of a topic configuration never.
FAMILIES: dict[str, tuple[str, ...]] = {
    "subscription chains": ("createSubscription",),
    "durable queues": ("createDurableQueue", "updateDurableQueue", "deleteDurableQueue"),
    "topics": ("brokerPutConfig", "brokerDeleteConfig"),
}


def family_operations(sources: tuple[str, ...]) -> set[str]:
    """The operations a family's links reach, from its SOURCES on."""
    reached, frontier = set(sources), list(sources)
    while frontier:
        source = frontier.pop()
        for (origin, _), targets in CHAIN_LINKS.items():
            for target in targets if origin == source else ():
                if target not in reached:
                    reached.add(target)
                    frontier.append(target)
    return reached


def _streams(operation: dict[str, Any]) -> bool:
    return "text/event-stream" in operation.get("responses", {}).get("200", {}).get("content", {})


def chains_document(app: Any, family: str) -> dict[str, Any]:
    """The hub's own document restricted to FAMILY's operations (never an endless SSE stream), with their
    links."""
    kept = family_operations(FAMILIES[family])
    document = copy.deepcopy(app.openapi())
    for path, item in list(document["paths"].items()):
        for method, operation in list(item.items()):
            if isinstance(operation, dict) and (operation.get("operationId") not in kept
                                                or _streams(operation)):
                del item[method]
        if not any(isinstance(operation, dict) for operation in item.values()):
            del document["paths"][path]
    for item in document["paths"].values():
        for operation in item.values():
            for (source, status), targets in CHAIN_LINKS.items():
                if isinstance(operation, dict) and operation.get("operationId") == source:
                    operation["responses"][status]["links"] = {
                        f"to_{target}": {"operationId": target, **link} for target, link in targets.items()
                        if target in kept}
    return document


def _unique(name: str) -> str:
    return f"{name[:40]}-{uuid.uuid4().hex[:8]}"


#: Valid roots and changes, each chosen for about half of its calls (``draw`` picks which).
VALID_SUBSCRIPTIONS = ({"sink_kind": "pull"}, {"sink_kind": "webhook", "endpoint": "https://93.184.215.14/hooks/fz"},
                       {"sink_kind": "rabbitmq", "endpoint": "orders/rk"})
VALID_OPTIONS = ({"ordering": {"key": "partitionkey", "on_dead_letter": "block"}}, {"rate_limit_per_second": 5},
                 {"ordering": None})
VALID_FILTERS = ([], [{"filters": [{"type": "event_type", "value": "orders.created"}]}])


def _valid_body(label: str, draw: int) -> dict[str, Any] | None:
    """A valid body for LABEL's operation, or None to keep the generated one."""
    if draw % 2:
        return None
    if label == "POST /v1/subscriptions":
        return VALID_SUBSCRIPTIONS[draw % 3] | {"name": _unique("ch")}
    if label == "PUT /v1/subscriptions/{id}/delivery-options":
        return dict(VALID_OPTIONS[draw % 3])
    if label == "POST /api/v1beta/queues/durable":
        return {"queue_id": _unique("fz"), "filter_groups": VALID_FILTERS[draw % 2]} if draw % 3 else {}
    if label == "PUT /api/{domain}/event/topics/{topic}":
        return {"max_events": 100 + draw % 50, "ttl_seconds": 3600}
    if label == "POST /v1/subscriptions/{id}/recover":
        return {"since": "2026-01-01T00:00:00Z"}
    return None


def prepare_chain(case: Any, draw: int, tenant: str) -> None:
    """Make CASE likelier to reach its operation: a valid body about half the time, the caller's own
    domain (seed 003) three times in four, a unique topic for a configuration's root."""
    body = _valid_body(case.operation.label, draw)
    if body is not None:
        case.body = body
    if case.path_parameters and "domain" in case.path_parameters and draw % 4:
        case.path_parameters["domain"] = tenant
    if case.operation.label == "PUT /api/{domain}/event/topics/{topic}" and draw % 2 == 0:
        case.path_parameters["topic"] = f"fz{uuid.uuid4().hex[:10]}"
