"""The contract's response schemas for getCatalog and listDLQObservations, transcribed for validation.

Transcribed from the contract's ``components/schemas`` (CatalogResponse, CatalogEvent,
CatalogProducer, DLQResponse, DLQObservation), descriptions dropped.
"""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator, FormatChecker

NULLABLE_DATE_TIME = {"type": ["string", "null"], "format": "date-time"}

SCHEMAS: dict[str, Any] = {
    "CatalogResponse": {
        "type": "object", "additionalProperties": False, "required": ["events", "producers"],
        "properties": {
            "events": {"type": "array", "items": {"$ref": "#/$defs/CatalogEvent"}},
            "producers": {"type": "array", "items": {"$ref": "#/$defs/CatalogProducer"}},
        },
    },
    "CatalogEvent": {
        "type": "object", "additionalProperties": False,
        "required": ["eventKey", "source", "resourceType", "eventType", "topic", "schemaVersion", "schemaMajor",
                     "description"],
        "properties": {
            "eventKey": {"type": "string"}, "source": {"type": "string"}, "resourceType": {"type": "string"},
            "eventType": {"type": "string"}, "topic": {"type": "string"}, "schemaVersion": {"type": "string"},
            "schemaMajor": {"type": "integer"}, "dataSchema": {"type": "string"}, "description": {"type": "string"},
        },
    },
    "CatalogProducer": {
        "type": "object", "additionalProperties": False,
        "required": ["target", "source", "fetched_at", "last_refresh_failed_at", "last_refresh_error_class"],
        "properties": {
            "target": {"type": "string"},
            "source": {"type": ["string", "null"]},
            "fetched_at": NULLABLE_DATE_TIME,
            "last_refresh_failed_at": NULLABLE_DATE_TIME,
            "last_refresh_error_class": {
                "type": ["string", "null"],
                "enum": ["fetch_failed", "invalid_manifest", "persist_failed", "breaker_open", None],
            },
        },
    },
    "DLQResponse": {
        "type": "object", "additionalProperties": False, "required": ["observations", "nextCursor"],
        "properties": {
            "observations": {"type": "array", "items": {"$ref": "#/$defs/DLQObservation"}},
            "nextCursor": {"type": "string"},
        },
    },
    "DLQObservation": {
        "type": "object", "additionalProperties": False,
        "required": ["source_topic", "error_class", "error_message", "retry_count", "first_failure_at",
                     "producer_id", "observed_at", "tenant_id_raw"],
        "properties": {
            "source_topic": {"type": "string"}, "error_class": {"type": "string"},
            "error_message": {"type": "string"}, "retry_count": {"type": "integer"},
            "first_failure_at": {"type": "string", "format": "date-time"}, "producer_id": {"type": "string"},
            "observed_at": {"type": "string", "format": "date-time"}, "tenant_id_raw": {"type": "string"},
        },
    },
}


def assert_matches(name: str, document: Any) -> None:
    """Raise when ``document`` breaks the contract schema ``name``."""
    schema = {**SCHEMAS[name], "$defs": SCHEMAS}
    Draft202012Validator(schema, format_checker=FormatChecker()).validate(document)
