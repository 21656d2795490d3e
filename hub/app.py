"""The API pod: ``create_app`` assembles the routers, error handling and middleware."""

from __future__ import annotations

from fastapi import FastAPI

from hub import __version__
from hub.buildinfo import build_identity
from hub.config import get_settings
from hub.logs import configure_logging
from hub.metrics import set_build_info
from hub.middleware import TraceMiddleware
from hub.ops.router import router as ops_router
from hub.problems import install_problem_handlers

API_DESCRIPTION = (
    "Fan-out delivery of the platform's CloudEvents to tenant destinations. "
    "Errors are RFC 9457 problem documents with a stable `code`."
)


def create_app() -> FastAPI:
    """A fresh application instance wired to the process settings."""
    settings = get_settings()
    configure_logging(settings.log_level)
    set_build_info(build_identity()["commit"])
    app = FastAPI(title="Streaming Hub API", version=__version__, description=API_DESCRIPTION)
    install_problem_handlers(app)
    app.add_middleware(TraceMiddleware)
    app.include_router(ops_router)
    for router in _feature_routers():
        app.include_router(router)
    return app


def _feature_routers() -> list:
    """The /v1 and /admin routers (each feature package contributes one)."""
    return []
