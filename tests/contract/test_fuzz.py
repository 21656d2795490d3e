"""schemathesis over every built operation, inside the normal test run.

R-X-PROB-01/02 (every error is problem+json), R-X-AUTH-01/02 (bad credentials are refused with a
declared status), and each operation's declared responses: at least MIN_CASES generated requests
with a valid token, none, a garbage one and an expired one; no 5xx, no undeclared status, every
body as its schema says. ``make fuzz`` runs the longer, stateful version.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hub.app import create_app
from tests.contract.fuzzing import SEED, Credentials, fuzz_all, fuzz_document
from tests.contract.test_operations import PENDING
from devkit.dnsserver import dns_server

MIN_CASES = 2000
EXAMPLES_PER_MODE = 100  # per operation, positive and negative (operations without inputs yield fewer)


@pytest.fixture
def isolated_egress(override_settings) -> Iterator[None]:
    """Generated webhook hosts resolve through a loopback DNS server that knows no name (NXDOMAIN);
    the allowances are raised so generated reads reach their operation."""
    with dns_server({}) as server:
        override_settings(dns_nameservers=server.address, dns_timeout_seconds=0.5, rate_limit_reads=1_000_000,
                          rate_limit_events=1_000_000, rate_limit_dashboard=1_000_000)
        yield


@pytest.mark.timeout(600)
def test_generated_requests_conform(isolated_egress):
    """No 5xx, only declared statuses, problem+json errors, bodies as the contract's schemas say (the
    built operations of the contract drive generation; seed and count are in the README)."""
    app = create_app()
    tally = fuzz_all(app, credentials=Credentials(), max_examples=EXAMPLES_PER_MODE, seed=SEED,
                     document=fuzz_document(app, PENDING))
    print(tally.summary())
    assert not tally.failed, tally.summary()
    assert tally.cases >= MIN_CASES, tally.summary()
    assert all(tally.statuses[status] for status in (200, 201, 204, 401, 404, 422)), tally.summary()
