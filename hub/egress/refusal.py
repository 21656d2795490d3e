"""A refused connection as an exception, and the check of IP-literal hosts, shared by every HTTP client path.

The clients (hub.egress.pinned for webhook deliveries, hub.egress.aio for aiohttp sessions) raise
:class:`EgressRefused` when the destination check refuses a connection, so a sink classifies the
refusal apart from a network failure.
"""

from __future__ import annotations

from functools import lru_cache

from hub.config import get_settings
from hub.egress.check import canonical_host, check_host
from hub.errors import HubError


class EgressRefused(OSError):
    """The destination check refused a connection; ``cause`` is the egress domain error."""

    def __init__(self, cause: HubError) -> None:
        super().__init__(cause.detail)
        self.cause = cause


def check_literal(host: str, port: int) -> None:
    """Refuse a blocked IP-literal host (raises EgressRefused); a name is checked when it is resolved."""
    refusal = _literal_refusal(host, port, tuple(get_settings().egress_allow_cidrs))
    if refusal is not None:
        raise EgressRefused(refusal)


@lru_cache(maxsize=4096)
def _literal_refusal(host: str, port: int, _allow: tuple[str, ...]) -> HubError | None:
    """Why a literal host is refused, or None (pure for a given allow-list, so it is cached)."""
    try:
        _, literal = canonical_host(host)
        if literal is not None:
            check_host(host, port)
    except HubError as exc:
        return exc
    return None
