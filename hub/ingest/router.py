"""Ingestion has no HTTP route; importing this module (the app discovers every feature's
``router``) registers the ``ingestion`` readiness probe."""

from __future__ import annotations

from fastapi import APIRouter

from hub.ingest.probe import ingestion_probe
from hub.ops.probes import register_probe

router = APIRouter()
register_probe(ingestion_probe)
