"""``hub token --event-broker`` mints the seed-003 claim (E3)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hub.auth.tokens import decode_token, principal_from_claims
from hub.broker.access import parse_grant_options


def test_the_option_mints_the_claim_the_routes_read():
    done = subprocess.run([sys.executable, "-m", "workers.cli", "token", "--tenant", "acme",
                           "--event-broker", "orders=PRD/RW", "--event-broker", "*=R"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    principal = principal_from_claims(decode_token(done.stdout.strip()))
    assert principal.event_broker == {"orders": {"data": "PRD", "topics": "RW"}, "*": {"data": "R", "topics": ""}}


@pytest.mark.parametrize("option", ["orders", "orders=X", "orders=P/D", "=P"])
def test_malformed_grants_are_refused(option):
    with pytest.raises(ValueError):
        parse_grant_options([option])
