"""Domain errors of destination checks. Details are generic: never the URL, a credential or an address."""

from __future__ import annotations

import math
from typing import Any

from hub.errors import HubError, ServiceUnavailable, ValidationFailed


class InvalidDestination(ValidationFailed):
    """The destination is malformed (not https, userinfo, bad host or port)."""

    code, default_detail = "validation_error", "the destination is not a valid address"


class EndpointBlocked(ValidationFailed):
    """The destination is, or resolves to, an address the hub refuses to contact."""

    code = "endpoint_blocked"
    default_detail = "the destination resolves to a blocked, private, or metadata address"


class DnsUnavailable(ServiceUnavailable):
    """The DNS lookup failed (NXDOMAIN, SERVFAIL, no addresses); nothing was written."""

    code = "dns_unavailable"
    default_detail = "the DNS lookup of the destination host failed; retry later"

    def __init__(self, detail: str | None = None, *, retry_after: float = 1.0, **kwargs: Any) -> None:
        headers = {"Retry-After": str(max(1, math.ceil(retry_after))), **(kwargs.pop("headers", None) or {})}
        super().__init__(detail, headers=headers, **kwargs)


class DnsTimeout(HubError):
    """The DNS lookup did not finish within ``dns_timeout_seconds``; no Retry-After is declared."""

    status, code = 504, "dns_timeout"
    default_detail = "the DNS lookup of the destination host timed out"


class EgressConfigError(HubError):
    """A destination setting is malformed; the message names the setting, never its value."""

    status, code = 500, "internal_error"
