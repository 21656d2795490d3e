"""``hub rekey``: re-seal every sealed subscription column under the newest encryption key.

The sealing itself is :mod:`hub.secrets`; this module knows which subscription columns hold
sealed values and under which context each was sealed.
"""

from __future__ import annotations

from sqlmodel import Session, col, or_, select

from hub.secrets import VERSION, SecretsError, keyring, needs_rekey, seal, unseal
from hub.subscription.models import Subscription
from hub.subscription.versions import bump_version

SEALED_FIELDS = ("secret_current", "secret_previous", "credential_sealed")


def _context_for(subscription_id: object, field: str) -> str:
    return f"{subscription_id}:{'credential' if field == 'credential_sealed' else field}"


def rekey_subscriptions(*, session: Session, tenant_id: str | None = None) -> int:
    """Re-seal every sealed subscription field not under the newest key; returns how many values changed.

    Runs in the caller's transaction (rows locked FOR UPDATE; the caller commits, as ``session_scope`` does),
    so either every value moves to the newest key or none does. Soft-deleted rows are included.
    ``tenant_id`` limits the pass to one tenant's rows.
    """
    newest_prefix = f"{VERSION}.{keyring().newest}."
    columns = [col(getattr(Subscription, name)) for name in SEALED_FIELDS]
    stale = or_(*(c.is_not(None) & ~c.startswith(newest_prefix, autoescape=True) for c in columns))
    changed = 0
    query = select(Subscription).where(stale)
    if tenant_id is not None:
        query = query.where(Subscription.tenant_id == tenant_id)
    for row in session.exec(query.with_for_update()):
        for field in SEALED_FIELDS:
            envelope = getattr(row, field)
            context = _context_for(row.id, field)
            try:
                if envelope is None or not needs_rekey(envelope):
                    continue
                plaintext = unseal(envelope, context=context)
            except SecretsError as exc:
                raise SecretsError(f"subscription {row.id} {field}: {exc.detail}") from None
            setattr(row, field, seal(plaintext, context=context))
            changed += 1
        session.add(row)
    if changed:
        # Workers cache subscriptions; a changed row must move the shared version counter.
        bump_version(session)
    session.flush()
    return changed
