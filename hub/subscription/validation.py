"""Hub-side checks of the create and patch bodies: what the schema cannot say (A12).

Every refusal is ``422`` with a ``code`` and an ``errors`` entry naming the field.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from hub.auth.tokens import Principal
from hub.errors import ValidationFailed
from hub.ids import parse_uuid
from hub.providers.endpoints import check_shape, clean_text
from hub.providers.registry import kinds, provider_for
from hub.subscription.errors import EventTypeOutsideNature, InlineSinkConfigForbidden, invalid
from hub.subscription.options_schemas import StaticHeader
from hub.subscription.schemas import CreateSubscriptionRequest, VerificationState
from hub.subscription.values import ListFilters, NewSubscription

MAX_NAME_LENGTH = 200
MAX_TOKEN_LENGTH = 255
MAX_EVENT_TYPES = 200
MAX_MAJOR = 2_147_483_647
DEFAULT_TIMEOUT_MS = 10_000
TIMEOUT_RANGE = (1_000, 20_000)
INLINE_CONFIG_FIELDS = ("sink_config", "sinkConfig", "credential")
OPTION_FIELDS = ("filter", "headers", "rate_limit_per_second", "ordering")  # N67, N77: the delivery options' own resource
RATE_LIMIT_RANGE = (1, 10_000)  # N56: deliveries per second


def _present(raw_body: bytes, fields: tuple[str, ...]) -> list[str]:
    """Which of ``fields`` the JSON object body names."""
    try:
        parsed = orjson.loads(raw_body)
    except orjson.JSONDecodeError:
        return []  # unreachable for a route whose body json_body has parsed
    return [field for field in fields if isinstance(parsed, dict) and field in parsed]


def refuse_inline_config(raw_body: bytes) -> None:
    """R-createSubscription-08: inline ``sink_config`` / ``credential`` → inline_sink_config_forbidden."""
    present = _present(raw_body, INLINE_CONFIG_FIELDS)
    if present:
        raise InlineSinkConfigForbidden(errors=[{"location": field, "message": "queue credentials arrive only "
                                                 "on PUT /v1/subscriptions/{id}/credential"} for field in present])


def refuse_options_at_create(raw_body: bytes) -> None:
    """N67: the delivery options are set on their own resource; a create body naming one is 422
    ``validation_error`` (never silently dropped: the subscription would deliver unfiltered)."""
    present = _present(raw_body, OPTION_FIELDS)
    if present:
        raise ValidationFailed("the delivery options are set on PUT /v1/subscriptions/{id}/delivery-options",
                               errors=[{"location": field, "message": "not a field of the create body: set it on "
                                        "PUT /v1/subscriptions/{id}/delivery-options"} for field in present])


def _token(value: str, location: str) -> str:
    if not value.strip() or value != value.strip():
        raise invalid(location, f"{location} must be non-blank with no surrounding whitespace")
    return clean_text(value, location, max_length=MAX_TOKEN_LENGTH)


def check_event_types(event_types: list[str] | None) -> list[str] | None:
    if event_types is None:
        return None
    if not event_types:
        raise invalid("event_types", "event_types may not be empty; omit it to receive every event type")
    if len(event_types) > MAX_EVENT_TYPES:
        raise invalid("event_types", f"at most {MAX_EVENT_TYPES} event types")
    seen: set[str] = set()
    for index, value in enumerate(event_types):
        _token(value, f"event_types/{index}")
        if value in seen:
            raise invalid(f"event_types/{index}", f'"{value}" is listed twice')
        seen.add(value)
    return list(event_types)


def check_major(value: int | None, location: str) -> int | None:
    if value is not None and not 1 <= value <= MAX_MAJOR:
        raise invalid(location, f"{location} must be from 1 to {MAX_MAJOR}")
    return value


def check_event_majors(event_majors: dict[str, int] | None, event_types: list[str] | None) -> dict[str, int] | None:
    if not event_majors:
        return None
    for key, major in event_majors.items():
        location = f"event_majors/{key}"
        _token(key, location)
        check_major(major, location)
        if event_types is not None and key not in event_types:
            raise invalid(location, f'"{key}" is not one of event_types')
    return dict(event_majors)


def check_timeout(timeout_ms: int | None, sink_kind: str) -> int | None:
    """The timeout to store: None for the 10000 default (omitted or 0); webhook only."""
    if not timeout_ms:
        return None
    if not provider_for(sink_kind).signs:
        raise invalid("timeout_ms", "timeout_ms applies to webhook subscriptions only")
    low, high = TIMEOUT_RANGE
    if not low <= timeout_ms <= high:
        raise invalid("timeout_ms", f"timeout_ms must be from {low} to {high} (or 0 for the default)")
    return None if timeout_ms == DEFAULT_TIMEOUT_MS else timeout_ms


def matches_nature(event_type: str, nature: tuple[str, ...]) -> bool:
    """N16: a nature entry is an exact event key or a ``prefix.*`` pattern."""
    for pattern in nature:
        if pattern == "*" or pattern == event_type:
            return True
        if pattern.endswith(".*") and event_type.startswith(pattern[:-1]):
            return True
    return False


def check_nature(event_types: list[str] | None, principal: Principal) -> None:
    """R-createSubscription-17: every event type must be one the delegated credential receives."""
    if principal.nature is None:
        return
    if event_types is None:
        raise EventTypeOutsideNature(errors=[{"location": "event_types", "message": "a credential with a nature "
                                              "must name the event types it subscribes to"}])
    refused = [{"location": f"event_types/{index}", "message": f'"{value}" is outside the credential\'s nature'}
               for index, value in enumerate(event_types) if not matches_nature(value, principal.nature)]
    if refused:
        raise EventTypeOutsideNature(errors=refused)


def check_rate_limit(rate: int | None) -> int | None:
    """N56: a rate limit in range (None: no limit); the kind is checked by ``rate_limit_for_kind``."""
    low, high = RATE_LIMIT_RANGE
    if rate is not None and not low <= rate <= high:
        raise invalid("rate_limit_per_second", f"rate_limit_per_second must be from {low} to {high}, or null")
    return rate


def rate_limit_for_kind(rate: int | None, sink_kind: str) -> int | None:
    """N56: only a kind the engine pushes to takes a rate limit (a pull reader paces itself)."""
    if rate is not None and not provider_for(sink_kind).is_push:
        raise invalid("rate_limit_per_second", "rate_limit_per_second applies to push subscriptions only")
    return rate


def plain_headers(headers: list[StaticHeader] | None) -> list[dict[str, Any]] | None:
    """The body's static headers as plain dicts, for the provider's checks (N54)."""
    return None if headers is None else [header.model_dump() for header in headers]


def check_create(body: CreateSubscriptionRequest, principal: Principal) -> NewSubscription:
    """Every hub check of a create body that needs no I/O, in the order a caller would fix them."""
    if not body.name.strip():
        raise invalid("name", "name must not be blank")
    name = clean_text(body.name.strip(), "name", max_length=MAX_NAME_LENGTH)
    sink_kind = body.sink_kind.value
    endpoint = check_shape(sink_kind, body.endpoint)
    event_types = check_event_types(body.event_types)
    new = NewSubscription(
        name=name, sink_kind=sink_kind, endpoint=endpoint, event_types=event_types,
        origin=None if body.origin is None else _token(body.origin, "origin"),
        timeout_ms=check_timeout(body.timeout_ms, sink_kind),
        schema_major=check_major(body.schema_major, "schema_major"),
        event_majors=check_event_majors(body.event_majors, event_types),
        plan_tier="standard" if body.plan_tier is None else _token(body.plan_tier, "plan_tier"),
        delegated_scope=principal.delegated_scope,
    )
    check_nature(event_types, principal)
    return new


DEFAULT_LIMIT, MAX_LIMIT = 50, 200  # docs/contract-notes.md N4
SINK_KINDS = kinds()
VERIFICATION_STATES = tuple(state.value for state in VerificationState)


def _limit(raw: str | None) -> int:
    """N4: default 50, clamped to 200; a non-positive value means the default."""
    if raw is None:
        return DEFAULT_LIMIT
    if not re.fullmatch(r"[+-]?[0-9]{1,30}", raw.strip()):
        raise invalid("limit", "limit must be an integer")
    value = int(raw.strip())
    return DEFAULT_LIMIT if value <= 0 else min(value, MAX_LIMIT)


def _one_of(raw: str | None, allowed: tuple[str, ...], location: str) -> str | None:
    if raw is not None and raw not in allowed:
        raise invalid(location, f"{location} must be one of {', '.join(allowed)}")
    return raw


def list_filters(*, sink_kind: str | None, limit: str | None, after: str | None, name: str | None,
                 enabled: str | None, verification_state: str | None) -> ListFilters:
    """The list query parameters, validated by the hub (N1): 422 validation_error on a bad value."""
    after_id = None
    if after is not None:
        after_id = parse_uuid(after)
        if after_id is None:
            raise invalid("after", "after must be the id (UUID) of the previous page's last row")
    if name is not None and not name.strip():
        raise invalid("name", "name must not be blank")
    if enabled is not None and enabled not in ("true", "false"):
        raise invalid("enabled", "enabled must be true or false")
    return ListFilters(
        limit=_limit(limit), after=after_id, sink_kind=_one_of(sink_kind, SINK_KINDS, "sink_kind"),
        name=None if name is None else clean_text(name.strip(), "name", max_length=MAX_NAME_LENGTH),
        enabled=None if enabled is None else enabled == "true",
        verification_state=_one_of(verification_state, VERIFICATION_STATES, "verification_state"),
    )


def check_patch_timeout(timeout_ms: int | None, sink_kind: str) -> int | None:
    """R-updateSubscriptionSchemaMajor-04: 0 returns to the default; the create rules otherwise."""
    return check_timeout(timeout_ms, sink_kind)
