"""The API pod: ``create_app`` assembles the routers, error handling and middleware."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from hub import __version__, tracing
from hub.apidocs import install_openapi
from hub.buildinfo import build_identity
from hub.broker import router as broker
from hub.catalog import router as catalog
from hub.catalog.readiness import catalog_readiness
from hub.catalog.refresher import catalog_refresher
from hub.config import get_settings
from hub.console.serve import install_console
from hub.consumer import router as consumer
from hub.dashboard import router as dashboard
from hub.deadletters import router as deadletters
from hub.destinations import ping
from hub.deliverylog import router as deliverylog
from hub.destinations import router as destinations
from hub.durablequeues import router as durablequeues
from hub.dlq import router as dlq
from hub.health import router as health
from hub.heap import freeze_heap
from hub.ingest.readiness import ingestion_readiness
from hub.inputguard import InputGuard
from hub.logs import configure_logging
from hub.metrics import set_build_info
from hub.middleware import TraceMiddleware
from hub.ops import router as ops
from hub.ordering import router as ordering
from hub.ops.readiness import ReadinessCheck, database_readiness, kafka_readiness, register_check
from hub.plainroutes import serve_plain
from hub.problems import install_problem_handlers
from hub.publisher import router as publisher
from hub.pull import router as pull
from hub.subscription import options_router, router as subscription

# The API surface, in one place: every router the app serves and every readiness check /readyz runs
# (in this order in its body). Add new ones here. A request is matched against the routers in this
# order, each miss costing CPU: the publisher's routes, which take one request per event, come first
# (N61); the others follow by name (the committed OpenAPI document sorts its keys).
ROUTERS: tuple[APIRouter, ...] = (
    publisher.router,
    broker.publish_router,
    broker.router,
    catalog.router,
    consumer.router,
    dashboard.router,
    deadletters.router,
    deliverylog.router,
    ping.router,
    destinations.router,
    durablequeues.router,
    dlq.router,
    health.router,
    ops.router,
    ordering.router,
    pull.router,
    subscription.router,
    options_router.router,
)
READINESS_CHECKS: tuple[ReadinessCheck, ...] = (
    database_readiness,
    kafka_readiness,
    catalog_readiness,
    ingestion_readiness,
)

API_DESCRIPTION = (
    "Fan-out delivery of the platform's CloudEvents to tenant destinations. "
    "Errors are RFC 9457 problem documents with a stable `code`."
)


@asynccontextmanager
async def lifespan(_: FastAPI) -> AsyncIterator[None]:
    """Background work of the API process: the catalog refresher (when enabled and configured)."""
    with catalog_refresher():
        yield


def create_app() -> FastAPI:
    """A fresh application instance wired to the process settings."""
    settings = get_settings()
    configure_logging(settings.log_level)
    tracing.configure("api")
    set_build_info(build_identity()["commit"])
    # FastAPI would ask the OpenTelemetry providers on every request whether to instrument it: the hub
    # records traces only, and only when tracing.configure set them up just now (N59, N66).
    app = FastAPI(title="Streaming Hub API", version=__version__, description=API_DESCRIPTION,
                  lifespan=lifespan, telemetry={"tracing": tracing.enabled(), "metrics": False, "logs": False})
    install_problem_handlers(app)
    app.add_middleware(InputGuard)  # inside the trace middleware: its answers carry the trace id (N93)
    app.add_middleware(TraceMiddleware)
    for router in ROUTERS:
        app.include_router(router)
    serve_plain(app, broker.publish_router, broker.PLAIN_ENDPOINTS)  # inserted first: matched after seed 000's
    serve_plain(app, publisher.router, publisher.PLAIN_ENDPOINTS)
    for check in READINESS_CHECKS:
        register_check(check)
    install_console(app)
    install_openapi(app)
    return app


def serve_app() -> FastAPI:
    """``create_app`` for ``hub api``'s server, with the built process's heap frozen.

    Why: under ``hub dev`` at 500 publishes/s the API's cyclic collector ran a full collection every second
    or so, each walking the whole imported heap (N110). Tests build apps with ``create_app``: no freeze."""
    app = create_app()
    freeze_heap()
    return app
