"""Plain Starlette routes that serve a few documented FastAPI operations without FastAPI's request path.

Why: the publisher takes one request per event (issue 19), and FastAPI's per-request work for an
``APIRoute`` (the included-router indirection, reading the body for a declared body field, solving
the dependency graph, which builds ``request.query_params`` and the like even for an endpoint that
takes only ``request``) cost more CPU than the endpoint itself (N66). An endpoint whose only
parameter is the ``Request`` needs none of that, so a plain ``starlette.routing.Route`` calling the
same function answers identically.

The ``APIRoute`` stays where it is, so the OpenAPI document is generated from it unchanged; the
plain route, put ahead of every route of the app, takes the requests. The endpoint is written once:
the plain route is built from the ``APIRoute`` (path, methods, name, endpoint). The plain route puts
itself in ``scope["route"]`` as an ``APIRoute`` does, and its ``path`` is the documented template, so
the latency metric's route label is the same. Errors take the app's exception handlers as before
(Starlette's ``request_response`` wraps the endpoint in them).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.routing import APIRoute, APIRouter
from starlette.routing import Match, Route
from starlette.types import Scope


def _takes_only_request(endpoint: Callable[..., Any]) -> bool:
    parameters = list(inspect.signature(endpoint, eval_str=True).parameters.values())
    return len(parameters) == 1 and parameters[0].annotation is Request


class PlainRoute(Route):
    """A Starlette route that names itself in ``scope["route"]`` as an ``APIRoute`` does: FastAPI's
    router leaves that to the route, and the latency metric reads its ``path`` from there."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child_scope = super().matches(scope)
        if match is not Match.NONE:
            child_scope["route"] = self
        return match, child_scope


def plain_route(route: APIRoute) -> PlainRoute:
    """A plain route serving ROUTE's operation with the same endpoint; its endpoint must take only
    ``request: Request`` and declare no dependencies (there would be nothing to solve them)."""
    if not _takes_only_request(route.endpoint) or route.dependencies:
        raise ValueError(f"{route.path}: only an endpoint taking just `request: Request` can be served plain")
    return PlainRoute(route.path, route.endpoint, methods=sorted(route.methods), name=route.name)


def serve_plain(app: FastAPI, router: APIRouter, endpoints: Sequence[Callable[..., Any]]) -> None:
    """Serve the operations of ROUTER whose endpoint is one of ENDPOINTS by plain routes matched
    ahead of all of APP's routes; the ``APIRoute`` still documents them."""
    routes = [plain_route(route) for route in router.routes
              if isinstance(route, APIRoute) and route.endpoint in endpoints]
    if len(routes) != len(endpoints):
        raise ValueError("every endpoint served plain must be an operation of the router")
    app.router.routes[0:0] = routes
