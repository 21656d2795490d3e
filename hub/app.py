"""The API pod: ``create_app`` assembles the routers, error handling and middleware."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

import hub

from hub import __version__
from hub.apidocs import install_openapi
from hub.buildinfo import build_identity
from hub.catalog.refresher import catalog_refresher
from hub.config import get_settings
from hub.logs import configure_logging
from hub.metrics import set_build_info
from hub.middleware import TraceMiddleware
from hub.problems import install_problem_handlers

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
    set_build_info(build_identity()["commit"])
    app = FastAPI(title="Streaming Hub API", version=__version__, description=API_DESCRIPTION,
                  lifespan=lifespan)
    install_problem_handlers(app)
    app.add_middleware(TraceMiddleware)
    for router in feature_routers():
        app.include_router(router)
    install_openapi(app)
    return app


def feature_routers() -> list[APIRouter]:
    """Every ``hub/<feature>/router.py``'s ``router``, in package-name order."""
    routers = []
    for package in sorted(pkgutil.iter_modules(hub.__path__), key=lambda info: info.name):
        if not package.ispkg:
            continue
        try:
            module = importlib.import_module(f"hub.{package.name}.router")
        except ModuleNotFoundError as exc:
            if exc.name != f"hub.{package.name}.router":
                raise
            continue
        routers.append(module.router)
    return routers
