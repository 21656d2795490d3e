"""Every built operation matches the contract, check by check; the unbuilt ones are listed in PENDING.

R-X-AUTH-01 (security on every /v1 and /admin operation), R-getCatalog-01, R-listDLQObservations-01,
R-X-IDEM-10 (where the replay header is declared) and every operation's declared responses.
Work that builds an operation removes it from PENDING; the set ends empty.
"""

from __future__ import annotations

import pytest

from hub.app import create_app
from tests.contract.compare import CHECKS, load_contract, mismatches, operations

#: Contract operations not built yet. Remove an id when its route lands.
PENDING: frozenset[str] = frozenset()

#: Intended deviations (named in the README): exactly these mismatches are expected, nothing else.
DEVIATIONS: dict[tuple[str, str], list[str]] = {
    # Readiness also lists each probe's state and detail.
    ("getReadiness", "response schemas"): [
        f"response {status} application/json {where}" for status in ("200", "503") for where in (
            "/: properties +['probes'] -[]", "/: required +['probes'] -[]", "/probes[]: object not in the contract")],
    # The hub runs on Python: /runtime reports Python facts instead of the Go runtime's.
    ("getRuntime", "response schemas"): [
        "response 200 application/json /: properties +['gcCollections', 'pythonVersion', 'rssBytes', 'threads'] "
        "-['goVersion', 'goroutines', 'heapAlloc', 'numGC']",
        "response 200 application/json /: required +['gcCollections', 'pythonVersion', 'rssBytes', 'threads'] "
        "-['goVersion', 'goroutines', 'heapAlloc', 'numGC']"],
}

#: The neighbouring seed systems the hub also serves (extensions E10, E6) live under /api/; the
#: seeds, not this contract, specify them, and their own contract tests check them.
SEED_SURFACE_PREFIX = "/api/"
SEED_HEALTH_PATH = "/health"  # seed 000's REST health check
#: Extensions of the Streaming Hub API under /v1 (issue 22: the delivery log, resend and recover,
#: docs/contract-notes.md N45-N52); tests/deliverylog/test_openapi.py checks them.
DELIVERY_LOG_OPERATIONS = frozenset({
    "listSubscriptionDeliveries", "getSubscriptionDelivery", "resendSubscriptionDelivery",
    "recoverSubscriptionDeliveries", "getSubscriptionRecovery",
})
#: The delivery options' own resource (issue 37, N67); tests/subscriptions/test_delivery_options_openapi.py
#: checks them. An extension adds operations; it never changes a contract operation.
DELIVERY_OPTIONS_OPERATIONS = frozenset({"getSubscriptionDeliveryOptions", "putSubscriptionDeliveryOptions"})
#: The tenant's seed 000 durable queues, read-only (issue 41, N76); tests/durablequeues checks them.
DURABLE_QUEUE_OPERATIONS = frozenset({"listDurableQueues", "getDurableQueue"})
#: Dead-letter triage over HTTP, operator-only (issue 41, N76): the REST form of ManageDeadLetteredEvents.
DEAD_LETTER_OPERATIONS = frozenset({"listDeadLetteredEvents", "triageDeadLetteredEvents"})
#: An ordered subscription's blocked keys, listed and resumed (issue 40, N77); tests/blockedkeys checks them.
BLOCKED_KEY_OPERATIONS = frozenset({"listSubscriptionBlockedKeys", "resumeSubscriptionBlockedKey"})
EXTENSION_OPERATIONS = (DELIVERY_LOG_OPERATIONS | DELIVERY_OPTIONS_OPERATIONS | DURABLE_QUEUE_OPERATIONS
                        | DEAD_LETTER_OPERATIONS | BLOCKED_KEY_OPERATIONS)

CONTRACT = load_contract()
BUILT = sorted(set(operations(CONTRACT)) - PENDING)


@pytest.fixture(scope="module")
def app_document() -> dict:
    return create_app().openapi()


@pytest.mark.parametrize("check", list(CHECKS))
@pytest.mark.parametrize("operation_id", BUILT)
def test_operation_matches_contract(app_document, operation_id, check):
    """Each built operation passes each check (the test id names the operation and the check)."""
    found = mismatches(app_document, CONTRACT, operation_id, check)
    expected = DEVIATIONS.get((operation_id, check), [])
    if expected:
        assert sorted(found) == sorted(expected), f"{operation_id} '{check}' differs from its intended deviation"
        return
    assert not found, f"{operation_id} fails '{check}':\n  " + "\n  ".join(found)


def test_pending_operations_are_contract_operations():
    unknown = sorted(PENDING - set(operations(CONTRACT)))
    assert not unknown, f"PENDING names operations the contract does not have: {unknown}"


def test_pending_operations_are_not_built(app_document):
    """A PENDING operation is really absent; once built, remove it from PENDING so it is checked."""
    built = sorted(PENDING & set(operations(app_document)))
    assert not built, f"{built} are built: remove them from PENDING in tests/contract/test_operations.py"


def test_every_contract_operation_is_built(app_document):
    """With PENDING empty, the app serves every operation of the contract."""
    missing = sorted(set(operations(CONTRACT)) - set(operations(app_document)) - PENDING)
    assert not missing, f"contract operations neither built nor PENDING: {missing}"


def test_app_has_no_operation_outside_the_contract(app_document):
    extra = sorted(op_id for op_id, op in operations(app_document).items()
                   if op_id not in operations(CONTRACT) and not op.path.startswith(SEED_SURFACE_PREFIX)
                   and op.path != SEED_HEALTH_PATH and op_id not in EXTENSION_OPERATIONS)
    assert not extra, f"operations the contract does not define: {extra}"
