"""The five unauthenticated operational routes: liveness, readiness, version, runtime, metrics."""

from __future__ import annotations

import gc
import os
import platform
import resource
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel

from hub.buildinfo import build_identity
from hub.metrics import READY
from hub.ops.readiness import CHECKS, fold
from hub.schema_base import ClosedModel

router = APIRouter(tags=["Operational"])
_readiness_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="readyz")


class LivenessResponse(ClosedModel):
    status: str  # always "ok"


class ReadinessDetail(BaseModel):
    name: str
    state: Literal["healthy", "degraded", "down"]
    detail: str


class ReadinessResponse(BaseModel):
    state: Literal["healthy", "degraded", "down"]
    probes: list[ReadinessDetail]


class VersionResponse(ClosedModel):
    version: str
    commit: str
    buildDate: str


class RuntimeResponse(ClosedModel):
    pythonVersion: str
    threads: int
    gcCollections: int
    rssBytes: int
    numCPU: int


@router.get("/healthz", operation_id="getLiveness", response_model=LivenessResponse)
def get_liveness() -> LivenessResponse:
    return LivenessResponse(status="ok")


@router.get(
    "/readyz", operation_id="getReadiness", response_model=ReadinessResponse,
    responses={503: {"model": ReadinessResponse, "description": "the replica is down"}},
)
def get_readiness() -> JSONResponse:
    outcomes = list(_readiness_pool.map(lambda check: check(), list(CHECKS)))
    state = fold(outcomes)
    for outcome in outcomes:  # the probe's answer as a metric, for an alert (deploy/observability, N72)
        READY.labels(check=outcome.name).set(outcome.state != "down")
    body = ReadinessResponse(state=state, probes=[ReadinessDetail(**vars(outcome)) for outcome in outcomes])
    return JSONResponse(body.model_dump(), status_code=503 if state == "down" else 200)


@router.get("/version", operation_id="getVersion", response_model=VersionResponse)
def get_version() -> VersionResponse:
    return VersionResponse(**build_identity())


def _rss_bytes() -> int:
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


@router.get("/runtime", operation_id="getRuntime", response_model=RuntimeResponse)
def get_runtime() -> RuntimeResponse:
    return RuntimeResponse(
        pythonVersion=platform.python_version(), threads=threading.active_count(),
        gcCollections=sum(stat["collections"] for stat in gc.get_stats()), rssBytes=_rss_bytes(),
        numCPU=os.cpu_count() or 1,
    )


@router.get(
    "/metrics", operation_id="getMetrics", response_class=Response,
    responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}},
)
def get_metrics() -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
