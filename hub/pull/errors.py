"""Domain errors of the pull inbox (codes from the contract's index)."""

from __future__ import annotations

from hub.errors import ServiceUnavailable

RETRY_AFTER_SECONDS = "5"


class DelegatedPartyUnconfirmed(ServiceUnavailable):
    """The decision service could not confirm the subscription's delegated party; transient."""

    code = "delegated_party_unconfirmed"
    default_detail = "the subscription's delegated party cannot be confirmed yet; retry later"

    def __init__(self) -> None:
        super().__init__(headers={"Retry-After": RETRY_AFTER_SECONDS})
