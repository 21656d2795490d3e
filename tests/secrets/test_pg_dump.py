"""A real `pg_dump` of the database holds no secret in clear (R-X-SEC-03, R-createSubscription-23)."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path

from hub.db import libpq_url, session_scope
from hub.secrets import mint_signing_secret, seal
from hub.subscription.models import Subscription


def _pg_dump() -> str:
    for directory in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (directory / "pg_dump").exists():
            return str(directory / "pg_dump")
    found = shutil.which("pg_dump")
    assert found, "pg_dump is not installed"
    return found


def test_database_dump_contains_no_clear_secret_R_X_SEC_03_R_createSubscription_23(insert_subscription) -> None:
    """R-X-SEC-03 / R-createSubscription-23: the signing secret and credential are stored only as ciphertext."""
    secret = mint_signing_secret()
    previous = mint_signing_secret()
    password = "Sup3r-s3cret-broker-pw"
    credential = json.dumps({"username": "hub", "password": password})
    row = insert_subscription(sink_kind="webhook")
    sealed = {"secret_current": seal(secret, context=f"{row.id}:secret_current"),
              "secret_previous": seal(previous, context=f"{row.id}:secret_previous"),
              "credential_sealed": seal(credential, context=f"{row.id}:credential")}
    with session_scope() as session:
        stored = session.get(Subscription, row.id)
        for field, value in sealed.items():
            setattr(stored, field, value)
        session.add(stored)

    dump = subprocess.run([_pg_dump(), "--no-owner", "--no-privileges", f"--dbname={libpq_url()}"],
                          capture_output=True, timeout=300, check=True).stdout

    assert str(row.id).encode() in dump and sealed["secret_current"].encode() in dump, "the row must be dumped"
    for clear in (secret, previous):
        raw = base64.b64decode(clear)
        forms = [clear, raw.hex(), raw.hex().upper(), base64.urlsafe_b64encode(raw).decode(),
                 base64.b64encode(raw).decode().rstrip("="), base64.b64encode(clear.encode()).decode()]
        for form in forms:
            assert form.encode() not in dump
        assert raw not in dump
    for form in (password, password.encode().hex(), base64.b64encode(password.encode()).decode(), credential):
        assert form.encode() not in dump
