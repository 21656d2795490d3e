"""Bringing a queue destination to ``active``: credential write, setup artifacts, delegated grant, verify.

State moves (R-X-STATE-*): a successful probe sets ``active``; a failed probe of an ``active``
destination sets ``degraded`` and leaves any other state alone. Only verify touches ``enabled``: its
success also clears an auto-disable, in the same transaction as the state move. Probes run before
the write transaction opens; the row is then locked and re-read, so a subscription deleted during
the probe is a 404 and nothing is written. Every write bumps the workers' subscription version.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import orjson
from sqlmodel import Session

from hub.config import Settings
from hub.db import session_scope
from hub.delivery.probe import run_probe
from hub.delivery.service import ProbeUnsupported, release_held_jobs, webhook_probe
from hub.destinations import artifacts
from hub.destinations.probes import probe_aws, probe_rabbitmq
from hub.destinations.schemas import BUS_ARN, GrantRequest, static_credential
from hub.egress import DnsTimeout, DnsUnavailable, InvalidDestination, check_https_url
from hub.errors import HubError
from hub.ids import new_id
from hub.secrets import seal, unseal
from hub.sinks.base import AttemptResult
from hub.sinks.rabbitmq import broker_target
from hub.sinks.vocabulary import ErrorClass, SinkKind
from hub.subscription.errors import invalid
from hub.subscription.models import Subscription
from hub.subscription.service import bump_version, get_subscription, secret_context
from hub.subscription.values import Caller

log = logging.getLogger("hub.destinations")
AWS_KINDS = (SinkKind.sqs, SinkKind.eventbridge)
VERIFIED_KINDS = (SinkKind.webhook, SinkKind.sqs, SinkKind.eventbridge)


class SetupNotConfigured(HubError):
    """The deployment lacks the hub principal ARN or the template URL (the cause is logged only)."""

    status, code, default_detail = 500, "internal_error", "internal error"


def _read(caller: Caller, subscription_id: str) -> Subscription:
    with session_scope() as session:
        return get_subscription(session=session, caller=caller, subscription_id=subscription_id)


def apply_probe(session: Session, sub: Subscription, result: AttemptResult, *, clear_disable: bool = False) -> None:
    """The state machine on one locked row: success → active; failure of an active one → degraded.

    On success the jobs held while the destination was not deliverable become due now (D23).
    """
    now = datetime.now(UTC)
    if result.ok:
        sub.verification_state = "active"
        if clear_disable:
            sub.enabled, sub.auto_disabled, sub.disabled_reason = True, False, ""
        release_held_jobs(session=session, subscription_id=sub.id)
    elif sub.verification_state == "active":
        sub.verification_state = "degraded"
    sub.updated_at = now
    session.add(sub)
    session.flush()
    bump_version(session)


def _refuse_blocked_destination(kind: SinkKind, endpoint: str, credential: Mapping[str, Any]) -> None:
    """R-putSubscriptionCredential-09: the broker host or queue URL must pass the SSRF guard (422)."""
    try:
        if kind is SinkKind.rabbitmq:
            broker_target(str(credential["uri"]))
        elif kind is SinkKind.sqs:
            check_https_url(endpoint)
    except InvalidDestination as exc:
        raise invalid("sinkConfig/uri" if kind is SinkKind.rabbitmq else "endpoint", exc.detail) from exc


def _probe(kind: SinkKind, sub: Subscription, *, credential: Mapping[str, Any] | None,
           grant: Mapping[str, Any] | None, settings: Settings) -> AttemptResult:
    try:
        if kind is SinkKind.rabbitmq:
            return probe_rabbitmq(endpoint=sub.endpoint, credential=credential or {}, settings=settings)
        return probe_aws(kind, endpoint=sub.endpoint, credential=credential, grant=grant, settings=settings,
                         session_name=f"hub-verify-{sub.id}")
    except DnsUnavailable:
        return AttemptResult.failure(ErrorClass.dns, "the destination host did not resolve")
    except DnsTimeout:
        return AttemptResult.failure(ErrorClass.timeout, "the DNS lookup of the destination host timed out")


def put_credential(*, caller: Caller, subscription_id: str, config: dict[str, Any],
                   settings: Settings) -> AttemptResult:
    """Probe the candidate credential; store it sealed and activate only when the probe succeeds."""
    sub = _read(caller, subscription_id)
    kind = SinkKind(sub.sink_kind)
    if not kind.is_queue:
        raise invalid("sinkConfig", f"a {kind.value} subscription takes no credential")
    credential = static_credential(kind, config)
    try:
        _refuse_blocked_destination(kind, sub.endpoint, credential)
    except (DnsUnavailable, DnsTimeout):
        result = AttemptResult.failure(ErrorClass.dns, "the destination host did not resolve")
    else:
        result = _probe(kind, sub, credential=credential, grant=None, settings=settings)
    with session_scope() as session:
        locked = get_subscription(session=session, caller=caller, subscription_id=subscription_id, for_update=True)
        if result.ok:
            locked.credential_sealed = seal(orjson.dumps(credential), context=secret_context(locked.id, "credential"))
            locked.credential_updated_at = datetime.now(UTC)
            locked.credential_kind = "static_credential"
        apply_probe(session, locked, result)
    return result


def _setup_settings(settings: Settings) -> tuple[str, str]:
    if not settings.aws_hub_principal_arn or not settings.aws_setup_template_url:
        log.error("setup artifacts requested but HUB_AWS_HUB_PRINCIPAL_ARN or HUB_AWS_SETUP_TEMPLATE_URL is unset")
        raise SetupNotConfigured()
    return settings.aws_hub_principal_arn, settings.aws_setup_template_url


def _external_id(session: Session, sub: Subscription) -> str:
    """The subscription's ExternalId, minted on first use under the row lock (stable afterwards)."""
    if not sub.external_id:
        sub.external_id = str(new_id())
        session.add(sub)
        session.flush()
        bump_version(session)
    return sub.external_id


def setup_artifacts(*, caller: Caller, subscription_id: str, settings: Settings) -> artifacts.SetupArtifacts:
    """R-getSubscriptionSetupArtifacts-02..06: trust policy and quick-create link with a stable ExternalId."""
    sub = _read(caller, subscription_id)
    kind = SinkKind(sub.sink_kind)
    if kind not in AWS_KINDS:
        raise invalid("id", f"setup artifacts exist for sqs and eventbridge subscriptions, not {kind.value}")
    principal_arn, template_url = _setup_settings(settings)
    with session_scope() as session:
        locked = get_subscription(session=session, caller=caller, subscription_id=subscription_id,
                                  for_update=not sub.external_id)
        external_id = _external_id(session, locked)
        grant = locked.delegated_grant or {}
        region = grant.get("region") or artifacts.endpoint_region(kind, locked.endpoint) or settings.aws_region
        return artifacts.build_artifacts(
            principal_arn=principal_arn, template_url=template_url, external_id=external_id, region=region,
            kind=kind, endpoint=locked.endpoint, subscription_id=str(locked.id).replace("-", "")[-12:])


def check_grant(*, caller: Caller, subscription_id: str, grant: GrantRequest) -> None:
    """Checks before the write (not recorded under the key): the kind, and the destination (SSRF, shape)."""
    sub = _read(caller, subscription_id)
    kind = SinkKind(sub.sink_kind)
    if kind not in AWS_KINDS:
        raise invalid("destination", f"delegated grants exist for sqs and eventbridge, not {kind.value}")
    if kind is SinkKind.sqs:
        _check_queue_destination(sub.endpoint, grant.destination)
    else:
        _check_bus_destination(sub.endpoint, grant)


def _queue_path(url: str) -> list[str]:
    """``[account id, queue name]`` of a queue URL."""
    return [segment for segment in urlsplit(url).path.split("/") if segment]


def _check_queue_destination(endpoint: str, destination: str) -> None:
    try:
        check_https_url(destination)
    except InvalidDestination as exc:
        raise invalid("destination", exc.detail) from exc
    except (DnsUnavailable, DnsTimeout):
        raise invalid("destination", "the destination host does not resolve") from None
    if _queue_path(destination) != _queue_path(endpoint):
        raise invalid("destination", "the destination must be the subscription's queue URL")


def _check_bus_destination(endpoint: str, grant: GrantRequest) -> None:
    match = BUS_ARN.match(grant.destination)
    if match is None:
        raise invalid("destination", "the destination must be the event bus ARN")
    if match.group(2) != endpoint.partition("/")[0] or match.group(1) != grant.region:
        raise invalid("destination", "the destination must be the subscription's event bus in the grant's region")


def register_grant(*, session: Session, caller: Caller, subscription_id: str, grant: GrantRequest) -> None:
    """R-putSubscriptionDelegatedGrant-05/09: store the coordinates; the state is left as it is."""
    sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id, for_update=True)
    if SinkKind(sub.sink_kind) not in AWS_KINDS:
        raise invalid("destination", f"delegated grants exist for sqs and eventbridge, not {sub.sink_kind}")
    sub.delegated_grant = {"roleArn": grant.role_arn, "region": grant.region, "destination": grant.destination}
    # The grant replaces a stored static credential as the way the hub reaches the destination.
    sub.credential_kind, sub.credential_sealed, sub.credential_updated_at = "delegated_grant", None, None
    sub.updated_at = datetime.now(UTC)
    session.add(sub)
    session.flush()
    bump_version(session)


def verify(*, caller: Caller, subscription_id: str, settings: Settings) -> AttemptResult:
    """R-verifySubscription-*: re-run the kind's probe; success activates and clears auto-disable."""
    sub = _read(caller, subscription_id)
    kind = SinkKind(sub.sink_kind)
    if kind not in VERIFIED_KINDS:
        raise ProbeUnsupported(f"{kind.value} subscriptions have no verify probe")
    if kind is SinkKind.webhook:
        result = _probe_webhook(sub)
    else:
        credential, grant = delivery_access(sub)
        if credential is None and grant is None:
            result = AttemptResult.failure(ErrorClass.no_credential, "no delegated grant or credential is registered")
        else:
            result = _probe(kind, sub, credential=credential, grant=grant, settings=settings)
    with session_scope() as session:
        locked = get_subscription(session=session, caller=caller, subscription_id=subscription_id, for_update=True)
        apply_probe(session, locked, result, clear_disable=True)
    return result


def _probe_webhook(sub: Subscription) -> AttemptResult:
    """The signed webhook probe that ping sends (the delivery feature's), with the current secrets."""
    return run_probe(webhook_probe(sub))


def delivery_access(sub: Subscription) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """What a delivery to ``sub`` authenticates with: (unsealed static credential, delegated grant).

    The delivery engine puts these in ``PreparedDelivery.credential`` / ``.grant``. The grant
    carries the subscription's ExternalId; a grant without one cannot be assumed (no ExternalId
    was ever minted), so it is not offered.
    """
    if sub.credential_kind == "static_credential" and sub.credential_sealed:
        opened = unseal(sub.credential_sealed, context=secret_context(sub.id, "credential"))
        return orjson.loads(opened), None
    if sub.credential_kind == "delegated_grant" and sub.delegated_grant and sub.external_id:
        return None, {**sub.delegated_grant, "externalId": sub.external_id}
    return None, None
