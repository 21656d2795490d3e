"""Key rotation on the real database: `hub rekey` as a real subprocess re-seals rows under the newest key.

The command runs with ``--tenant`` so it only touches this test's fresh tenant: other engineers' tests share
the database and seal under their own keys.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from sqlalchemy import text
from sqlmodel import select

from hub.config import REPO_ROOT
from hub.db import session_scope
from hub.secrets import SecretsError, mint_signing_secret, needs_rekey, seal, unseal
from hub.subscription.rekey import rekey_subscriptions
from hub.subscription.models import Subscription
from tests.secrets.conftest import material, new_key


def _run_rekey(tenant: str, keys: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HUB_ENCRYPTION_KEYS": ",".join(keys), "HUB_LOG_LEVEL": "DEBUG"}
    return subprocess.run([sys.executable, "-m", "hub.cli", "rekey", "--tenant", tenant], env=env, cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120)


def _rows(tenant: str) -> dict[str, Subscription]:
    with session_scope() as session:
        return {str(row.id): row for row in session.exec(select(Subscription).where(Subscription.tenant_id == tenant))}


def _version() -> int:
    with session_scope() as session:
        return session.execute(text("SELECT version FROM subscription_versions WHERE id = 1")).scalar_one()


def _sealed_row(insert_subscription, *, skip: tuple[str, ...] = (), **fields: object
                ) -> tuple[Subscription, dict[str, str]]:
    """A row with the sealed fields (except ``skip``) set under the current keys; returns it and the clear values."""
    row = insert_subscription(**fields)
    clear = {"secret_current": mint_signing_secret(), "secret_previous": mint_signing_secret(),
             "credential_sealed": '{"username":"hub","password":"pa55-word"}'}
    clear = {field: value for field, value in clear.items() if field not in skip}
    contexts = {"secret_current": "secret_current", "secret_previous": "secret_previous",
                "credential_sealed": "credential"}
    with session_scope() as session:
        stored = session.get(Subscription, row.id)
        for field, value in clear.items():
            setattr(stored, field, seal(value, context=f"{row.id}:{contexts[field]}"))
        stored.secret_rotated_at = datetime.now(UTC)
        session.add(stored)
    return row, clear


def _opens(row: Subscription, clear: dict[str, str]) -> None:
    names = {"credential_sealed": "credential"}
    for field, value in clear.items():
        envelope = getattr(row, field)
        assert unseal(envelope, context=f"{row.id}:{names.get(field, field)}") == value.encode()


def test_hub_rekey_reseals_every_field_under_the_newest_key_R_X_SEC_03(tenant, use_keys,
                                                                      insert_subscription) -> None:
    """R-X-SEC-03: keys rotate — the newest seals, all open, and `hub rekey` moves old values to the newest."""
    old, new = new_key("old"), new_key("new")
    use_keys(old)
    first, first_clear = _sealed_row(insert_subscription)
    second, second_clear = _sealed_row(insert_subscription, skip=("secret_previous", "credential_sealed"))
    deleted, deleted_clear = _sealed_row(insert_subscription, deleted_at=datetime.now(UTC))
    use_keys(new, old)
    already, already_clear = _sealed_row(insert_subscription)  # sealed under "new": must stay untouched
    before = _rows(tenant)
    version = _version()

    result = _run_rekey(tenant, [new, old])

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "re-encrypted 7 secret values"
    output = result.stdout + result.stderr
    assert material(new) not in output and material(old) not in output
    after = _rows(tenant)
    for field in ("secret_current", "secret_previous", "credential_sealed"):
        assert getattr(after[str(already.id)], field) == getattr(before[str(already.id)], field)
        for row in (first, deleted):
            assert getattr(after[str(row.id)], field).startswith("v1.new.")
            assert getattr(after[str(row.id)], field) != getattr(before[str(row.id)], field)
    assert after[str(second.id)].secret_previous is None and after[str(second.id)].credential_sealed is None
    assert after[str(first.id)].updated_at == before[str(first.id)].updated_at, "rekey is not a user change"
    assert after[str(deleted.id)].deleted_at is not None
    assert _version() > version

    use_keys(new)  # the old key is gone: everything still opens
    for row, clear in ((first, first_clear), (second, second_clear), (deleted, deleted_clear),
                       (already, already_clear)):
        stored = after[str(row.id)]
        assert not any(needs_rekey(getattr(stored, f)) for f in clear)
        _opens(stored, clear)

    again = _run_rekey(tenant, [new])
    assert again.returncode == 0 and again.stdout.strip() == "re-encrypted 0 secret values"


def test_hub_rekey_is_all_or_nothing(tenant, use_keys, insert_subscription) -> None:
    """A value that no configured key opens aborts the whole pass; nothing is re-sealed."""
    old, new, gone = new_key("old"), new_key("new"), new_key("gone")
    use_keys(old)
    good, _ = _sealed_row(insert_subscription)
    use_keys(gone)
    bad, _ = _sealed_row(insert_subscription, skip=("secret_previous", "credential_sealed"))
    before = _rows(tenant)

    result = _run_rekey(tenant, [new, old])

    assert result.returncode == 1
    assert "rekey failed" in result.stderr and str(bad.id) in result.stderr and "gone" in result.stderr
    assert material(gone) not in result.stderr and material(new) not in result.stderr
    after = _rows(tenant)
    assert after[str(good.id)].secret_current == before[str(good.id)].secret_current
    assert after[str(good.id)].secret_current.startswith("v1.old.")


def test_rekey_refuses_a_value_moved_to_another_row(tenant, use_keys, insert_subscription) -> None:
    """Envelopes are bound to their row: one copied into another row does not open there and is not re-sealed."""
    old, new = new_key("old"), new_key("new")
    use_keys(old)
    source, _ = _sealed_row(insert_subscription, skip=("secret_previous", "credential_sealed"))
    target = insert_subscription(secret_current=_rows(tenant)[str(source.id)].secret_current)
    use_keys(new, old)
    with session_scope() as session, pytest.raises(SecretsError, match=str(target.id)):
        rekey_subscriptions(session=session, tenant_id=tenant)


def test_rekey_treats_key_ids_literally(tenant, use_keys, insert_subscription) -> None:
    """A key id with LIKE wildcards (``k_1``) must not be confused with a look-alike old id (``kx1``)."""
    look_alike, newest = new_key("kx1"), new_key("k_1")
    use_keys(look_alike)
    row, clear = _sealed_row(insert_subscription, skip=("secret_previous", "credential_sealed"))
    use_keys(newest, look_alike)
    with session_scope() as session:
        assert rekey_subscriptions(session=session, tenant_id=tenant) == 1
    stored = _rows(tenant)[str(row.id)]
    assert stored.secret_current.startswith("v1.k_1.")
    use_keys(newest)
    _opens(stored, clear)
