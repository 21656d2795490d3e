"""Producer manifests (docs/contract-notes.md N21): parse, validate against the JSON Schema, reduce to entries."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import orjson
from jsonschema import Draft202012Validator

from hub.config import REPO_ROOT

MANIFEST_SCHEMA_PATH = REPO_ROOT / "schemas" / "manifests" / "producer-manifest.schema.json"

_SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$")


class ManifestUnparseable(Exception):
    """The body is not JSON at all (a ``fetch_failed``, per R-getCatalog-23)."""


class ManifestInvalid(Exception):
    """The body parsed but breaks the manifest contract (``invalid_manifest``)."""


@dataclass(frozen=True)
class ManifestEvent:
    resource_type: str
    event_type: str
    schema_version: str
    schema_major: int
    data_schema: str
    description: str


@dataclass(frozen=True)
class Manifest:
    source: str
    topic: str
    events: tuple[ManifestEvent, ...]


@lru_cache
def manifest_validator() -> Draft202012Validator:
    """The validator for ``schemas/manifests/producer-manifest.schema.json``."""
    schema = orjson.loads(MANIFEST_SCHEMA_PATH.read_bytes())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _version_key(version: str) -> tuple[int, int, int, int, str]:
    """Sort key for semver within one major: minor, patch, then a release above its pre-releases."""
    match = _SEMVER.match(version)
    assert match is not None  # the JSON Schema already checked the pattern
    major, minor, patch, pre = match.groups()
    return int(major), int(minor), int(patch), 0 if pre else 1, pre or ""


def parse_manifest(body: bytes) -> Manifest:
    """The manifest in ``body``; raises ManifestUnparseable or ManifestInvalid (no raw text kept)."""
    try:
        document: Any = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise ManifestUnparseable("the manifest body is not JSON") from exc
    errors = sorted(manifest_validator().iter_errors(document), key=lambda err: list(err.absolute_path))
    if errors:
        where = "/".join(str(part) for part in errors[0].absolute_path) or "(root)"
        raise ManifestInvalid(f"the manifest breaks its schema at {where}")
    return Manifest(source=document["source"], topic=document["topic"], events=_highest_minors(document["events"]))


def _highest_minors(events: list[dict[str, Any]]) -> tuple[ManifestEvent, ...]:
    """One event per (resourceType, eventType, major): the highest version declared (R-getCatalog-15)."""
    best: dict[tuple[str, str, int], ManifestEvent] = {}
    for raw in events:
        version = raw["schemaVersion"]
        major = _version_key(version)[0]
        candidate = ManifestEvent(
            resource_type=raw["resourceType"], event_type=raw["eventType"], schema_version=version,
            schema_major=major, data_schema=raw.get("dataSchema", ""), description=raw.get("description", ""),
        )
        key = (candidate.resource_type, candidate.event_type, major)
        current = best.get(key)
        if current is None or _version_key(version) > _version_key(current.schema_version):
            best[key] = candidate
    return tuple(best[key] for key in sorted(best))
