"""Domain errors of the subscription operations (codes from the contract's index)."""

from __future__ import annotations

import uuid

from hub.errors import Conflict, ValidationFailed, invalid  # noqa: F401 (invalid: the subscription features import it here)


class InlineSinkConfigForbidden(ValidationFailed):
    code = "inline_sink_config_forbidden"
    default_detail = "sink_config and credential are not accepted at create; use PUT …/credential"


class UnknownEventType(ValidationFailed):
    code, default_detail = "unknown_event_type", "an event type has no catalog entry at its schema major"


class EventTypeOutsideNature(ValidationFailed):
    code = "event_type_outside_nature"
    default_detail = "the delegated credential never receives one of the event types"


class NoSecretToRotate(ValidationFailed):
    code, default_detail = "no_secret_to_rotate", "this subscription has no signing secret to rotate"


class NameTaken(Conflict):
    code, default_detail = "subscription_name_taken", "a live subscription in your scope already holds this name"

    def __init__(self, existing_id: uuid.UUID | None) -> None:
        super().__init__(extra={"existing_id": str(existing_id)} if existing_id else None)



class OrderingUnsupported(ValidationFailed):
    """N77: the subscription's kind cannot keep one key's order (its provider says why)."""

    code, default_detail = "ordering_unsupported", "this sink kind cannot deliver in order per key"
