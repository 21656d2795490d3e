"""The publish operations are served by plain routes (hub.plainroutes, N66) and answer as APIRoutes did."""

from __future__ import annotations

import pytest
from fastapi import APIRouter, Request

from hub.metrics import API_LATENCY
from hub.plainroutes import PlainRoute, plain_route
from hub.publisher import router as publisher


def _count(route: str, status: str) -> float:
    for metric in API_LATENCY.collect():
        for sample in metric.samples:
            if sample.name.endswith("_count") and sample.labels == {"route": route, "method": "POST",
                                                                     "status": status}:
                return sample.value
    return 0.0


def test_publish_routes_are_plain_and_first(app):
    """The two publish operations are matched ahead of every other route, by plain routes."""
    first = app.router.routes[:2]
    assert all(isinstance(route, PlainRoute) for route in first)
    assert {route.path for route in first} == {"/api/v1beta/events", "/api/v1beta/events/batch"}
    assert {route.endpoint for route in first} == set(publisher.PLAIN_ENDPOINTS)


def test_plain_route_keeps_the_metric_route_label(client):
    """TraceMiddleware labels the latency by the route template, not ``unmatched``."""
    for path in ("/api/v1beta/events", "/api/v1beta/events/batch"):
        before = _count(path, "401")
        response = client.post(path, content=b"{}", headers={"content-type": "application/json"})
        assert response.status_code == 401 and response.headers["x-trace-id"]
        assert _count(path, "401") == before + 1


def test_publish_operations_stay_documented(client):
    """The APIRoutes still generate the operations of the OpenAPI document."""
    paths = client.get("/openapi.json").json()["paths"]
    assert paths["/api/v1beta/events"]["post"]["operationId"] == "publishEvent"
    assert paths["/api/v1beta/events/batch"]["post"]["operationId"] == "batchPublishEvents"


def test_only_request_only_endpoints_can_be_plain():
    """An endpoint with other parameters needs FastAPI to solve them: refused."""
    router = APIRouter()

    @router.get("/x/{name}")
    async def named(request: Request, name: str) -> None: ...

    [route] = router.routes
    with pytest.raises(ValueError, match="only an endpoint"):
        plain_route(route)
