"""Subscription operations: every write bumps ``subscription_versions`` in its own transaction.

Visibility (N16): a tenant-wide caller reaches all of its tenant's live subscriptions; a delegated
caller only those stamped with its ``delegated_scope``. Anything else is a uniform 404.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from hub.errors import NotFound
from hub.ids import new_id, parse_uuid
from hub.providers.endpoints import pull_endpoint
from hub.providers.registry import provider_for
from hub.secrets import mint_signing_secret, seal, unseal
from hub.subscription.errors import NameTaken, NoSecretToRotate
from hub.subscription.models import Subscription
from hub.subscription.ordering_option import release_keys
from hub.subscription.catalog_check import check_catalog
from hub.subscription.validation import DEFAULT_TIMEOUT_MS, check_patch_timeout
from hub.subscription.versions import bump_version
from hub.subscription.values import Caller, ListFilters, NewSubscription

ROTATION_OVERLAP = timedelta(hours=24)
NAME_INDEX = "uq_subscriptions_live_name"


def secret_context(subscription_id: uuid.UUID, slot: str) -> str:
    """The AEAD context binding a sealed value to its row and slot (secret_current, …)."""
    return f"{subscription_id}:{slot}"


def _open(envelope: str, context: str) -> str:
    return unseal(envelope, context=context).decode("ascii")


def signing_secrets(*, subscription_id: uuid.UUID, current: str | None, previous: str | None,
                    overlap_until: datetime | None, now: datetime,
                    opener: Callable[[str, str], str] = _open) -> tuple[str, ...]:
    """The unsealed signing secrets a webhook request is signed with: the current one, then the
    previous one while the rotation overlap lasts (raises SecretsError when one cannot be opened)."""
    secrets: list[str] = []
    if current:
        secrets.append(opener(current, secret_context(subscription_id, "secret_current")))
    if previous and overlap_until is not None and overlap_until > now:
        secrets.append(opener(previous, secret_context(subscription_id, "secret_previous")))
    return tuple(secrets)


def attempt_timeout_seconds(timeout_ms: int | None) -> float:
    """A subscription's per-attempt timeout; a stored None (or 0) is the 10 s default."""
    return (timeout_ms or DEFAULT_TIMEOUT_MS) / 1000


def visible_to(caller: Caller) -> list[Any]:
    """The conditions under which ``caller`` sees a subscription: its tenant, its party, not deleted."""
    conditions = [Subscription.tenant_id == caller.tenant_id, col(Subscription.deleted_at).is_(None)]
    if caller.delegated_scope is not None:
        conditions.append(Subscription.delegated_scope == caller.delegated_scope)
    return conditions


def _visible(caller: Caller):  # noqa: ANN202 (a select statement)
    return select(Subscription).where(*visible_to(caller))


def _name_holder(session: Session, caller: Caller, name: str) -> uuid.UUID | None:
    query = select(Subscription.id).where(
        Subscription.tenant_id == caller.tenant_id, Subscription.name == name,
        col(Subscription.deleted_at).is_(None))
    if caller.delegated_scope is None:
        query = query.where(col(Subscription.delegated_scope).is_(None))
    else:
        query = query.where(Subscription.delegated_scope == caller.delegated_scope)
    return session.exec(query).first()


def _new_row(caller: Caller, new: NewSubscription, now: datetime) -> tuple[Subscription, str]:
    sub_id, provider = new_id(), provider_for(new.sink_kind)
    sub = Subscription(
        id=sub_id, tenant_id=caller.tenant_id, delegated_scope=new.delegated_scope, name=new.name,
        sink_kind=new.sink_kind, endpoint=new.endpoint or pull_endpoint(sub_id), event_types=new.event_types,
        event_majors=new.event_majors, origin=new.origin, schema_major=new.schema_major,
        timeout_ms=new.timeout_ms, plan_tier=new.plan_tier, created_at=now, updated_at=now,
        verification_state=provider.birth_state,
    )
    secret = ""
    if provider.signs:
        secret = mint_signing_secret()
        sub.secret_current = seal(secret, context=secret_context(sub_id, "secret_current"))
        sub.secret_rotated_at = now
        sub.credential_kind = "signing_secret"
    return sub, secret


def create_subscription(*, session: Session, caller: Caller, new: NewSubscription) -> tuple[Subscription, str]:
    """Insert the subscription; its signing secret (webhook) is returned once, stored sealed."""
    sub, secret = _new_row(caller, new, datetime.now(UTC))
    try:
        with session.begin_nested():
            session.add(sub)
            session.flush()
    except IntegrityError as exc:
        if getattr(getattr(exc.orig, "diag", None), "constraint_name", None) != NAME_INDEX:
            raise
        raise NameTaken(_name_holder(session, caller, new.name)) from None
    bump_version(session)
    return sub, secret


def list_subscriptions(*, session: Session, caller: Caller, filters: ListFilters) -> tuple[list[Subscription], str]:
    """A page newest first (id DESC) after the keyset cursor, and the next cursor ("" at the end)."""
    query = _visible(caller)
    if filters.after is not None:
        query = query.where(Subscription.id < filters.after)
    if filters.sink_kind is not None:
        query = query.where(Subscription.sink_kind == filters.sink_kind)
    if filters.enabled is not None:
        query = query.where(Subscription.enabled == filters.enabled)
    if filters.verification_state is not None:
        query = query.where(Subscription.verification_state == filters.verification_state)
    if filters.name is not None:
        holder = _name_holder(session, caller, filters.name)
        query = query.where(Subscription.id == holder)
    rows = list(session.exec(query.order_by(col(Subscription.id).desc()).limit(filters.limit)))
    next_cursor = str(rows[-1].id) if len(rows) == filters.limit else ""
    return rows, next_cursor


def get_subscription(*, session: Session, caller: Caller, subscription_id: str,
                     for_update: bool = False) -> Subscription:
    """The caller's live subscription, or a uniform 404 (absent, deleted, other tenant, bad id)."""
    parsed = parse_uuid(subscription_id)
    if parsed is None:
        raise NotFound("subscription not found")
    query = _visible(caller).where(Subscription.id == parsed)
    row = session.exec(query.with_for_update() if for_update else query).first()
    if row is None:
        raise NotFound("subscription not found")
    return row


def delete_subscription(*, session: Session, caller: Caller, subscription_id: str) -> None:
    """Soft-delete; absent, deleted or foreign ids are a silent no-op (R-deleteSubscription-03)."""
    try:
        sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id, for_update=True)
    except NotFound:
        return
    now = datetime.now(UTC)
    sub.deleted_at, sub.updated_at = now, now
    release_keys(session, sub)  # N77: a deleted subscription's waiting jobs end like its due ones
    session.add(sub)
    session.flush()
    bump_version(session)


def repin_schema_major(*, session: Session, caller: Caller, subscription_id: str, schema_major: int | None,
                       timeout_ms: int | None, timeout_given: bool) -> None:
    """Re-pin the caller's subscription (None follows major 1) and optionally set its timeout (the
    delivery options have a resource of their own, N67).

    The row is locked first; the timeout is checked against the subscription's kind
    (R-updateSubscriptionSchemaMajor-04), and the event types the pin moves (those without their
    own ``event_majors`` entry) must exist in the catalog at the new major (-06). Verification is
    untouched.
    """
    sub = get_subscription(session=session, caller=caller, subscription_id=subscription_id, for_update=True)
    timeout = check_patch_timeout(timeout_ms, sub.sink_kind) if timeout_given else sub.timeout_ms
    pinned_by_major = [key for key in sub.event_types or [] if key not in (sub.event_majors or {})]
    check_catalog(event_types=sub.event_types, schema_major=schema_major, event_majors=sub.event_majors,
                  origin=sub.origin, only=pinned_by_major)
    update_schema_major(session=session, sub=sub, schema_major=schema_major, timeout_ms=timeout,
                        timeout_given=timeout_given)


def update_schema_major(*, session: Session, sub: Subscription, schema_major: int | None,
                        timeout_ms: int | None, timeout_given: bool) -> None:
    """Write a checked re-pin to the locked row (``repin_schema_major`` checks it first)."""
    sub.schema_major = schema_major
    if timeout_given:
        sub.timeout_ms = timeout_ms
    sub.updated_at = datetime.now(UTC)
    session.add(sub)
    session.flush()
    bump_version(session)


def rotate_secret(*, session: Session, sub: Subscription) -> tuple[str, datetime]:
    """A new current secret; the old one becomes previous for 24 h (a second rotation replaces it)."""
    if not provider_for(sub.sink_kind).signs:
        raise NoSecretToRotate()
    now = datetime.now(UTC)
    if sub.secret_current is not None:
        old = unseal(sub.secret_current, context=secret_context(sub.id, "secret_current"))
        sub.secret_previous = seal(old, context=secret_context(sub.id, "secret_previous"))
    secret = mint_signing_secret()
    sub.secret_current = seal(secret, context=secret_context(sub.id, "secret_current"))
    sub.secret_rotated_at, sub.secret_overlap_until, sub.updated_at = now, now + ROTATION_OVERLAP, now
    session.add(sub)
    session.flush()
    bump_version(session)
    return secret, now + ROTATION_OVERLAP
