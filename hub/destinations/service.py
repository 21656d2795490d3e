"""Bringing a destination to ``active``: ping, credential write, setup artifacts, delegated grant, verify.

Every per-kind step is the kind's provider's (``hub.providers``); the state moves are
``hub.destinations.verdict``'s. Each service takes its session from the caller. It reads the row,
ends that transaction (no snapshot or lock is held while a probe or DNS lookup is on the network),
then locks and re-reads the row, so a subscription deleted during the probe is a 404 and nothing is
written. Every write bumps the workers' subscription version.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson
from sqlmodel import Session

from hub.config import Settings
from hub.destinations.schemas import GrantRequest, probe_result
from hub.destinations.verdict import apply_verdict
from hub.egress import DnsTimeout, DnsUnavailable
from hub.ids import new_id
from hub.providers.aws.provider import SetupArtifacts
from hub.providers.base import Access, ProbeTarget, ProbeUnsupported, Provider, stored_access
from hub.providers.registry import provider_for
from hub.secrets import seal, unseal
from hub.sinks.base import AttemptResult
from hub.sinks.vocabulary import ErrorClass
from hub.subscription.errors import invalid
from hub.subscription.models import Subscription
from hub.subscription.service import attempt_timeout_seconds, get_subscription, secret_context, signing_secrets
from hub.subscription.values import Caller
from hub.subscription.versions import bump_version

STATIC_CREDENTIAL, DELEGATED_GRANT = "static_credential", "delegated_grant"


def delivery_access(sub: Subscription) -> Access:
    """What a delivery to ``sub`` authenticates with (the rule is ``providers.base.stored_access``)."""
    context = secret_context(sub.id, "credential")
    return stored_access(credential_sealed=sub.credential_sealed, delegated_grant=sub.delegated_grant,
                         external_id=sub.external_id,
                         open_credential=lambda envelope: unseal(envelope, context=context).decode())


def probe_target(sub: Subscription, access: Access) -> ProbeTarget:
    """What a probe of ``sub`` needs: its destination, timeout, current signing secrets and access."""
    secrets = signing_secrets(subscription_id=sub.id, current=sub.secret_current, previous=sub.secret_previous,
                              overlap_until=sub.secret_overlap_until, now=datetime.now(UTC))
    headers = provider_for(sub.sink_kind).delivery_headers(
        sub.custom_headers, subscription_id=sub.id,
        opener=lambda envelope, context: unseal(envelope, context=context).decode())
    return ProbeTarget(subscription_id=sub.id, tenant_id=sub.tenant_id, endpoint=sub.endpoint,
                       timeout_seconds=attempt_timeout_seconds(sub.timeout_ms), signing_secrets=secrets,
                       access=access, headers=headers)


def _classified(probe: Any) -> AttemptResult:
    """Run ``probe``; a DNS failure of the destination's host is a classified result."""
    try:
        return probe()
    except DnsUnavailable:
        return AttemptResult.failure(ErrorClass.dns, "the destination host did not resolve")
    except DnsTimeout:
        return AttemptResult.failure(ErrorClass.timeout, "the DNS lookup of the destination host timed out")


def ping_subscription(*, session: Session, caller: Caller, subscription_id: str,
                      settings: Settings) -> dict[str, Any]:
    """R-pingSubscription-*: probe the caller's subscription and return the ProbeResult (404 / 422)."""
    sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id)
    provider = provider_for(sub.sink_kind)
    if not provider.pings:
        raise ProbeUnsupported()
    target = probe_target(sub, delivery_access(sub) if provider.needs_access else Access())
    session.rollback()  # hold no snapshot or lock while the probe is on the network
    result = _classified(lambda: provider.probe(target, settings))
    locked = get_subscription(session=session, caller=caller, subscription_id=subscription_id, for_update=True)
    apply_verdict(session, locked, result)
    session.commit()
    return probe_result(result)


def put_credential(*, session: Session, caller: Caller, subscription_id: str, config: dict[str, Any],
                   settings: Settings) -> AttemptResult:
    """Probe the candidate credential; store it sealed and activate only when the probe succeeds.

    A failed probe stores nothing and, when a credential or grant is in force, leaves the state as
    it is: deliveries go on with what is stored (R-putSubscriptionCredential-03).
    """
    sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id)
    provider = provider_for(sub.sink_kind)
    if not provider.takes_credential:
        raise invalid("sinkConfig", f"a {sub.sink_kind} subscription takes no credential")
    credential = provider.parse_credential(config)
    endpoint, target = sub.endpoint, probe_target(sub, Access(credential=credential))
    session.rollback()  # hold no snapshot or lock while the DNS lookup and the probe are on the network
    try:
        provider.refuse_blocked(endpoint, credential)
    except (DnsUnavailable, DnsTimeout):
        result = AttemptResult.failure(ErrorClass.dns, "the destination host did not resolve")
    else:
        result = _classified(lambda: provider.probe(target, settings))
    locked = get_subscription(session=session, caller=caller, subscription_id=subscription_id, for_update=True)
    in_force = not delivery_access(locked).empty
    if result.ok:
        locked.credential_sealed = seal(orjson.dumps(credential), context=secret_context(locked.id, "credential"))
        locked.credential_updated_at = datetime.now(UTC)
        locked.credential_kind = STATIC_CREDENTIAL
    apply_verdict(session, locked, result, written=result.ok, keeps_access=in_force)
    session.commit()
    return result


def _external_id(session: Session, sub: Subscription) -> str:
    """The subscription's ExternalId, minted on first use under the row lock (stable afterwards)."""
    if not sub.external_id:
        sub.external_id = str(new_id())
        session.add(sub)
        session.flush()
        bump_version(session)
    return sub.external_id


def _grant_provider(sink_kind: str) -> Provider:
    provider = provider_for(sink_kind)
    if not provider.takes_grant:
        raise invalid("destination", f"delegated grants exist for sqs and eventbridge, not {sink_kind}")
    return provider


def setup_artifacts(*, session: Session, caller: Caller, subscription_id: str,
                    settings: Settings) -> SetupArtifacts:
    """R-getSubscriptionSetupArtifacts-02..06: trust policy and quick-create link with a stable ExternalId."""
    sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id)
    provider = provider_for(sub.sink_kind)
    provider.check_setup(settings)  # before the ExternalId is minted
    if not sub.external_id:
        # A fresh transaction, so the locked re-read sees an ExternalId a concurrent request minted.
        session.rollback()
        sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id, for_update=True)
        _external_id(session, sub)
    artifacts = provider.setup_artifacts(
        endpoint=sub.endpoint, external_id=sub.external_id, region=(sub.delegated_grant or {}).get("region"),
        settings=settings, subscription_id=str(sub.id).replace("-", "")[-12:])
    session.commit()
    return artifacts


def check_grant(*, session: Session, caller: Caller, subscription_id: str, grant: GrantRequest) -> None:
    """Checks before the write (not recorded under the key): the kind, and the destination (SSRF, shape)."""
    sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id)
    provider, endpoint = _grant_provider(sub.sink_kind), sub.endpoint
    session.rollback()  # the destination check may look its host up; the grant is written on another session
    provider.check_grant(endpoint, grant)


def register_grant(*, session: Session, caller: Caller, subscription_id: str, grant: GrantRequest) -> None:
    """R-putSubscriptionDelegatedGrant-05/09: store the coordinates; the state is left as it is."""
    sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id, for_update=True)
    _grant_provider(sub.sink_kind)
    sub.delegated_grant = {"roleArn": grant.role_arn, "region": grant.region, "destination": grant.destination}
    # The grant replaces a stored static credential as the way the hub reaches the destination.
    sub.credential_kind, sub.credential_sealed, sub.credential_updated_at = DELEGATED_GRANT, None, None
    sub.updated_at = datetime.now(UTC)
    session.add(sub)
    session.flush()
    bump_version(session)


def verify(*, session: Session, caller: Caller, subscription_id: str, settings: Settings) -> AttemptResult:
    """R-verifySubscription-*: re-run the kind's probe; success activates and clears auto-disable."""
    sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id)
    provider = provider_for(sub.sink_kind)
    if not provider.verifies:
        raise ProbeUnsupported(f"{sub.sink_kind} subscriptions have no verify probe")
    target = probe_target(sub, delivery_access(sub) if provider.needs_access else Access())
    session.rollback()  # hold no snapshot or lock while the probe is on the network
    result = _classified(lambda: provider.verify(target, settings))
    locked = get_subscription(session=session, caller=caller, subscription_id=subscription_id, for_update=True)
    apply_verdict(session, locked, result, reenable=True)
    session.commit()
    return result
