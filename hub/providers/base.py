"""The provider interface, the access a delivery authenticates with, and the probe-unsupported error.

A :class:`Provider` subclass per kind overrides what its kind does; the defaults describe a kind
that takes an endpoint, no credential, no grant and has no probe. Capabilities are attributes
(``is_push``, ``signs``, ``pings``, ``verifies``, ``takes_credential``, ``takes_grant``, ``keeps_order``), so
callers ask the provider instead of comparing kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import orjson

from hub.errors import ValidationFailed, invalid
from hub.sinks.base import AttemptResult, Sink
from hub.sinks.vocabulary import ErrorClass, SinkKind

if TYPE_CHECKING:
    import uuid

    from hub.config import Settings

MAX_FIELD = 4096


def text_field(body: dict[str, Any], name: str, location: str) -> str:
    """A required non-empty string without control characters (422 naming ``location``)."""
    value = body.get(name)
    if not isinstance(value, str) or not value.strip():
        raise invalid(location, f"{location} is required and must be a non-empty string")
    if len(value) > MAX_FIELD or any(ord(char) < 0x20 for char in value):
        raise invalid(location, f"{location} is too long or has control characters")
    return value


class GrantCoordinates(Protocol):
    """A delegated grant's coordinates, as the grant route parsed them."""

    role_arn: str
    region: str
    destination: str


class EndpointShapeError(ValueError):
    """The endpoint is not the shape its sink kind needs; the message says which shape."""


class ProbeUnsupported(ValidationFailed):
    """The sink kind has no probe for this operation (ping: webhook only; verify names its kinds)."""

    code = "probe_unsupported_for_sink_kind"
    default_detail = "this sink kind has no ping probe"


class SinkUnavailable(Exception):
    """No sink class can be loaded for a kind (not a push kind, or its module is missing)."""


@dataclass(frozen=True, slots=True)
class Access:
    """What a delivery or a probe authenticates with: an unsealed static credential, or a delegated grant.

    The grant carries the subscription's ExternalId as ``externalId`` (the one key name).
    """

    credential: dict[str, Any] | None = None
    grant: dict[str, Any] | None = None

    @property
    def empty(self) -> bool:
        return self.credential is None and self.grant is None


NO_ACCESS = Access()


@dataclass(frozen=True, slots=True)
class ProbeTarget:
    """What a probe of one subscription's destination needs (built by the caller from the row)."""

    subscription_id: uuid.UUID
    tenant_id: str
    endpoint: str
    timeout_seconds: float
    signing_secrets: tuple[str, ...]
    access: Access
    headers: tuple[tuple[str, str], ...] = ()  # the subscription's static headers, unsealed (N54)


def stored_access(*, credential_sealed: str | None, delegated_grant: Mapping[str, Any] | None,
                  external_id: str | None, open_credential: Callable[[str], str]) -> Access:
    """The access stored on a subscription row (the one definition; the engine and the probes use it).

    A sealed credential wins (writing a grant clears it). A grant without an ExternalId cannot be
    assumed (none was ever minted), so it is not offered. ``open_credential`` unseals the envelope
    (the engine passes a cached opener); a credential that is not a JSON object is ``{"value": text}``.
    """
    if credential_sealed:
        text = open_credential(credential_sealed)
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            value = None
        return Access(credential=value if isinstance(value, dict) else {"value": text})
    if delegated_grant and external_id:
        return Access(grant={**delegated_grant, "externalId": external_id})
    return NO_ACCESS


class Provider:
    """One sink kind's destination rules and operations (override per kind)."""

    kind: ClassVar[SinkKind]
    sink: ClassVar[type[Sink] | None] = None  # the send half, imported by the kind's package; None: pull
    takes_endpoint: ClassVar[bool] = True  # False: the hub synthesizes it
    keeps_whitespace: ClassVar[bool] = False  # leading or trailing spaces are part of the destination
    names_destination_only: ClassVar[bool] = False  # no "scheme://": connection details live in the credential
    signs: ClassVar[bool] = False  # deliveries are signed with the subscription's secret (and take timeout_ms)
    pings: ClassVar[bool] = False
    verifies: ClassVar[bool] = False
    takes_credential: ClassVar[bool] = False
    takes_grant: ClassVar[bool] = False
    takes_headers: ClassVar[bool] = False  # static request headers per subscription (N54)
    # Ordered delivery per key (N77): the destination keeps the order the hub sends one key's events in.
    keeps_order: ClassVar[bool] = True
    ordering_refusal: ClassVar[str] = ""  # why a kind that does not keep order refuses the option
    # What the console shows of the kind (GET /console/kinds.json, N97): its name, the endpoint's label and an
    # example, and what a delegated grant's destination is.
    label: ClassVar[str] = ""
    endpoint_label: ClassVar[str] = "Endpoint"
    endpoint_example: ClassVar[str] = ""
    grant_destination_hint: ClassVar[str] = ""

    @property
    def is_push(self) -> bool:
        """Push kinds get delivery jobs; a kind without a sender is read from the event log instead."""
        return self.sink is not None

    @property
    def birth_state(self) -> str:
        """R-X-STATE-02: a kind without a destination to prove is born ``active``."""
        return "pending_verification" if self.is_push else "active"

    @property
    def needs_access(self) -> bool:
        return self.takes_credential or self.takes_grant

    # Endpoint (R-createSubscription-11/12/33, R-X-READ-02)
    def check_shape(self, endpoint: str) -> None:
        """Raise :class:`EndpointShapeError` unless ``endpoint`` has this kind's shape."""

    def check_reachable(self, endpoint: str) -> None:
        """The SSRF guard on the host the hub will contact; raises ``InvalidDestination``."""

    def mask(self, endpoint: str) -> str:
        """The short ``endpoint_display`` of a stored endpoint (may raise ValueError)."""
        return endpoint.partition("/")[0]

    def display(self, endpoint: str) -> str:
        """The short ``endpoint_display``; "" when the stored endpoint cannot be parsed."""
        try:
            return self.mask(endpoint)
        except ValueError:
            return ""

    def destination_key(self, endpoint: str) -> str:
        """The per-destination concurrency key of the delivery engine."""
        return f"{self.kind}:{endpoint}"

    # Static headers (N54)
    def check_headers(self, headers: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        """The static headers to store (None for none); 422 on a kind that sends none, or a bad header."""
        if headers:
            raise invalid("headers", f"static headers apply to webhook subscriptions, not {self.kind.value}")
        return None

    def delivery_headers(self, stored: list[dict[str, Any]] | None, *, subscription_id: uuid.UUID | str,
                         opener: Callable[[str, str], str]) -> tuple[tuple[str, str], ...]:
        """The static headers a delivery carries, unsealed (none for a kind that takes none)."""
        return ()

    # Credential and grant (R-putSubscriptionCredential-*, R-putSubscriptionDelegatedGrant-*)
    def parse_credential(self, config: dict[str, Any]) -> dict[str, Any]:
        """The credential to probe and store, normalized (422 naming the refused key)."""
        raise invalid("sinkConfig", f"a {self.kind.value} subscription takes no credential")

    def refuse_blocked(self, endpoint: str, credential: Mapping[str, Any]) -> None:
        """R-putSubscriptionCredential-09: the host the credential reaches must pass the SSRF guard (422)."""

    def check_grant(self, endpoint: str, grant: GrantCoordinates) -> None:
        """The grant's destination must be this subscription's (422 otherwise)."""
        raise invalid("destination", f"delegated grants exist for sqs and eventbridge, not {self.kind.value}")

    # Probes (ping, verify, probe-on-write); they run outside any transaction
    def probe(self, target: ProbeTarget, settings: Settings) -> AttemptResult:
        """Does the destination take a delivery now (with ``target.access``)? Never raises for its answer;
        a failed DNS lookup raises the egress domain error for the caller to classify."""
        raise ProbeUnsupported(f"{self.kind.value} subscriptions have no verify probe")

    def verify(self, target: ProbeTarget, settings: Settings) -> AttemptResult:
        """The verify probe: the kind's probe, or ``no_credential`` when no access is registered."""
        if not self.verifies:
            raise ProbeUnsupported(f"{self.kind.value} subscriptions have no verify probe")
        if self.needs_access and target.access.empty:
            return AttemptResult.failure(ErrorClass.no_credential, "no delegated grant or credential is registered")
        return self.probe(target, settings)

    # Setup artifacts (R-getSubscriptionSetupArtifacts-*)
    def check_setup(self, settings: Settings) -> None:
        """Refuse when this kind has no setup artifacts, or the deployment cannot build them."""
        raise invalid("id", f"setup artifacts exist for sqs and eventbridge subscriptions, not {self.kind.value}")

    def setup_artifacts(self, *, endpoint: str, external_id: str, region: str | None, settings: Settings,
                        subscription_id: str) -> Any:
        raise invalid("id", f"setup artifacts exist for sqs and eventbridge subscriptions, not {self.kind.value}")

    # Send half
    def sink_class(self) -> type[Sink]:
        """The kind's sink class; SinkUnavailable for a kind that pushes nothing."""
        if self.sink is None:
            raise SinkUnavailable(f"no sink delivers the kind {self.kind.value!r}")
        return self.sink
