"""Who may do what on the broker (E2, E3): the domain is the token's tenant, flags per Main Topic."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hub.auth.tokens import Principal, require_tenant
from hub.broker.errors import BrokerAccessDenied, DomainMismatch

WILDCARD = "*"
DATA, TOPICS = "data", "topics"
PUBLISH, READ, PURGE, WRITE = "P", "R", "D", "W"


@dataclass(frozen=True)
class BrokerCaller:
    """The tenant and its ``event_broker`` grants: Main Topic (or ``*``) → {"data": "PRD", "topics": "RW"}."""

    tenant_id: str
    grants: dict[str, dict[str, str]] = field(default_factory=dict)

    def flags(self, main_topic: str, kind: str) -> str:
        """The flags of KIND on MAIN_TOPIC: its own entry when it has one, else the wildcard's."""
        entry = self.grants.get(main_topic, self.grants.get(WILDCARD, {}))
        return entry.get(kind, "")

    def may(self, main_topic: str, kind: str, flag: str) -> bool:
        return flag in self.flags(main_topic, kind)

    def require(self, main_topic: str, kind: str, flag: str) -> None:
        if not self.may(main_topic, kind, flag):
            raise BrokerAccessDenied(f"the event_broker claim lacks {kind} flag {flag} on {main_topic!r}")


def _grants(claim: Any) -> dict[str, dict[str, str]]:
    """The claim's well-formed entries; anything else grants nothing."""
    if not isinstance(claim, dict):
        return {}
    grants: dict[str, dict[str, str]] = {}
    for topic, entry in claim.items():
        if isinstance(topic, str) and isinstance(entry, dict):
            grants[topic] = {kind: flags for kind, flags in entry.items()
                             if kind in (DATA, TOPICS) and isinstance(flags, str)}
    return grants


def broker_caller(principal: Principal, domain: str) -> BrokerCaller:
    """The caller of a route under ``/api/{domain}/event``; 403 ``domain_mismatch`` for another domain."""
    tenant = require_tenant(principal)
    if domain != tenant:
        raise DomainMismatch(f"the token's tenant is not {domain[:64]!r}")
    return BrokerCaller(tenant, _grants(principal.event_broker))


def parse_grant_options(options: list[str]) -> dict[str, dict[str, str]]:
    """``hub token --event-broker`` values (``orders=PRD/RW``, ``*=PR``) as the claim."""
    claim: dict[str, dict[str, str]] = {}
    for option in options:
        topic, equals, flags = option.partition("=")
        data, _, topics = flags.partition("/")
        if not topic or not equals or set(data) - set("PRD") or set(topics) - set("RW"):
            raise ValueError(f"{option!r} is not TOPIC=DATA_FLAGS or TOPIC=DATA_FLAGS/TOPIC_FLAGS "
                             "(data flags P, R, D; topic flags R, W)")
        claim[topic] = {DATA: data, TOPICS: topics}
    return claim
