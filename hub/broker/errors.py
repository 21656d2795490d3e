"""The broker's domain errors (turned into problem+json by hub.problems, like every HubError)."""

from __future__ import annotations

from hub.errors import Forbidden, ServiceUnavailable, ValidationFailed


class DomainMismatch(Forbidden):
    code, default_detail = "domain_mismatch", "the path's domain is not the token's tenant"


class BrokerAccessDenied(Forbidden):
    code, default_detail = "forbidden", "the event_broker claim does not grant this on the Main Topic"


class InvalidBrokerInput(ValidationFailed):
    default_detail = "the request breaks the event broker's grammar"


class EventNotStored(ServiceUnavailable):
    code, default_detail = "event_not_stored", "the event was not stored in time; retry with care"
