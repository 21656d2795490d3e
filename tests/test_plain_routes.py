"""The publish operations are served by plain routes (hub.plainroutes, N66) and answer as APIRoutes did."""

from __future__ import annotations

import pytest
from fastapi import APIRouter, Request

from hub.metrics import API_LATENCY
from hub.plainroutes import PlainRoute, plain_route
from hub.broker import router as broker
from hub.publisher import router as publisher

BROKER_PUBLISH = "/api/{domain}/event/data/{topic}"


def _count(route: str, status: str) -> float:
    for metric in API_LATENCY.collect():
        for sample in metric.samples:
            if sample.name.endswith("_count") and sample.labels == {"route": route, "method": "POST",
                                                                     "status": status}:
                return sample.value
    return 0.0


def test_publish_routes_are_plain_and_first(app):
    """Seed 000's two publish operations, then seed 003's, are matched ahead of every other route, by plain
    routes."""
    first = app.router.routes[:3]
    assert all(isinstance(route, PlainRoute) for route in first)
    assert [route.path for route in first] == ["/api/v1beta/events", "/api/v1beta/events/batch", BROKER_PUBLISH]
    assert {route.endpoint for route in first} == set(publisher.PLAIN_ENDPOINTS) | set(broker.PLAIN_ENDPOINTS)


def test_plain_route_keeps_the_metric_route_label(client):
    """TraceMiddleware labels the latency by the route template, not ``unmatched``."""
    for path, label in (("/api/v1beta/events", None), ("/api/v1beta/events/batch", None),
                        ("/api/acme/event/data/orders", BROKER_PUBLISH)):
        before = _count(label or path, "401")
        response = client.post(path, content=b"{}", headers={"content-type": "application/json"})
        assert response.status_code == 401 and response.headers["x-trace-id"]
        assert _count(label or path, "401") == before + 1


def test_publish_operations_stay_documented(client):
    """The APIRoutes still generate the operations of the OpenAPI document."""
    paths = client.get("/openapi.json").json()["paths"]
    assert paths["/api/v1beta/events"]["post"]["operationId"] == "publishEvent"
    assert paths["/api/v1beta/events/batch"]["post"]["operationId"] == "batchPublishEvents"
    broker_publish = paths[BROKER_PUBLISH]["post"]
    assert broker_publish["operationId"] == "brokerPublish"
    assert broker_publish["security"] == [{"BearerAuth": []}]
    assert [(p["name"], p["in"], p["required"]) for p in broker_publish["parameters"]] == [
        ("topic", "path", True), ("domain", "path", True)]


def test_only_request_only_endpoints_can_be_plain():
    """An endpoint with other parameters needs FastAPI to solve them: refused."""
    router = APIRouter()

    @router.get("/x/{name}")
    async def named(request: Request, name: str) -> None: ...

    [route] = router.routes
    with pytest.raises(ValueError, match="only an endpoint"):
        plain_route(route)
