"""``make fuzz``: at least 10,000 generated requests against every operation, then the tally.

Phases, each with a fixed seed: every contract operation on its own (positive and negative cases, good
and bad credentials), every other operation of ``schemas/openapi.json`` (the extensions and the seed
surfaces, against the hub's own document; the SSE streams excepted, which never end), then stateful
scenarios that follow links from a create to the reads, the change, the rotation and the delete of the
subscription it made, alternating with the chains beyond the contract (``fuzz_chains``: delivery options
and blocked keys, the delivery log with resend and recover, seed 000's durable queues, seed 003's
topics). The seed (``--seed``, ``make fuzz SEED=n``) fixes every phase, so a run replays. Exits 1 when any response breaks
the contract (5xx, an undeclared status, an error that is not problem+json, a body off its schema)
or when fewer requests than asked for were made.

    python -m tests.contract.fuzz [--cases 10000] [--seed 20261203]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import hypothesis
from hypothesis import HealthCheck, Phase
from hypothesis.errors import FlakyStrategyDefinition
from schemathesis.python import asgi

from tests.contract.documents import load_contract, operations
from tests.contract.fuzz_chains import FAMILIES, chains_document, prepare_chain
from tests.contract.fuzzing import (
    SEED, Credentials, Tally, built_operations, check_response, fuzz_document, fuzz_operation, load_schema,
    seed_subscriptions,
)

SUBSCRIPTION_ID = "$response.body#/subscription/id"
SAME_ID = "$request.path.id"
#: create → read / reveal / patch / rotate / delete; patch → read; delete → read (now 404).
LINKS: dict[tuple[str, str], dict[str, str]] = {
    ("createSubscription", "201"): {
        "getSubscription": SUBSCRIPTION_ID, "revealSubscriptionEndpoint": SUBSCRIPTION_ID,
        "updateSubscriptionSchemaMajor": SUBSCRIPTION_ID, "rotateSubscriptionSecret": SUBSCRIPTION_ID,
        "deleteSubscription": SUBSCRIPTION_ID,
    },
    ("updateSubscriptionSchemaMajor", "200"): {"getSubscription": SAME_ID, "deleteSubscription": SAME_ID},
    ("rotateSubscriptionSecret", "200"): {"getSubscription": SAME_ID, "deleteSubscription": SAME_ID},
    ("deleteSubscription", "204"): {"getSubscription": SAME_ID},
}
VALID_CREATES = ({"sink_kind": "pull"}, {"sink_kind": "webhook", "endpoint": "https://93.184.215.14/hooks/fuzz"},
                 {"sink_kind": "rabbitmq", "endpoint": "orders/rk"}, {"sink_kind": "pull", "schema_major": 2})
BAD_CREDENTIAL_EVERY = 7  # one stateful step in this many carries a bad credential


def add_links(document: dict[str, Any]) -> dict[str, Any]:
    """OpenAPI links for the stateful phase (the contract declares none)."""
    for item in document["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for status, targets in ((s, t) for (op, s), t in LINKS.items() if op == operation.get("operationId")):
                response = operation["responses"][status]
                response["links"] = {f"to_{target}": {"operationId": target, "parameters": {"path.id": expression}}
                                     for target, expression in targets.items()}
    return document


@contextmanager
def isolated_environment() -> Iterator[None]:
    """Generated webhook hosts resolve on a loopback DNS server knowing no name; reads are not throttled."""
    from hub.config import get_settings
    from devkit.dnsserver import dns_server

    with dns_server({}) as server:
        os.environ.update(HUB_DNS_NAMESERVERS=server.address, HUB_DNS_TIMEOUT_SECONDS="0.5",
                          HUB_RATE_LIMIT_READS="100000000", HUB_RATE_LIMIT_EVENTS="100000000",
                          HUB_RATE_LIMIT_DASHBOARD="100000000")
        get_settings.cache_clear()
        yield


def prepare_contract(case: Any, draw: int, tenant: str) -> None:
    """The contract chain's valid creates: every other create is valid, so the linked calls reach a row."""
    if case.operation.label == "POST /v1/subscriptions" and draw % 2:
        case.body = VALID_CREATES[draw % len(VALID_CREATES)] | {"name": f"st-{uuid.uuid4().hex[:12]}"}
    elif isinstance(case.body, dict) and isinstance(case.body.get("name"), str):
        # A generated name made unique: a replayed scenario must not meet its own earlier create.
        case.body = {**case.body, "name": f"{case.body['name']}-{uuid.uuid4().hex[:8]}"}


def stateful_phase(schema: Any, client: Any, credentials: Credentials, tally: Tally, scenarios: int,
                   seed: int, prepare: Callable[[Any, int, str], None] = prepare_contract,
                   label: str = "stateful") -> None:
    """Scenarios of linked calls seeded with SEED; ``prepare`` adjusts each generated step; every step's
    response is checked and counted under ``(LABEL)``."""
    steps: dict[str, Any] = {"count": 0, "credential": "valid"}

    class Scenario(schema.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"session": client}

        def before_call(self, case: Any) -> None:
            # Choices follow from the generated case alone, so hypothesis sees the same run on a replay.
            # (Its place in the scenario, not the path: a linked id differs from run to run.)
            self.position = getattr(self, "position", 0) + 1
            draw = zlib.crc32(repr((self.position, case.operation.label, case.body, case.query)).encode())
            credential = "valid" if draw % BAD_CREDENTIAL_EVERY else ("missing", "garbage", "expired")[draw % 3]
            steps["count"] += 1
            steps["credential"] = credential
            case.headers = credentials.apply(case.headers, credential)
            prepare(case, draw, credentials.tenant)
            if "X-Idempotency" in case.headers:
                case.headers["X-Idempotency"] = f"st-{uuid.uuid4().hex}"

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            tally.record(f"{case.operation.label} ({label})", steps["credential"],
                         response.status_code, check_response(case, response))

    try:
        hypothesis.seed(seed)(Scenario).run(settings=hypothesis.settings(
            max_examples=scenarios, stateful_step_count=12, deadline=None, database=None, derandomize=True,
            phases=[Phase.generate], suppress_health_check=list(HealthCheck)))
    except FlakyStrategyDefinition:
        # A scenario's path depends on live answers; hypothesis stops a round when a replay takes
        # another path. Every response was already checked and counted; the next round goes on.
        print(f"{label} round stopped early: a scenario took another path on replay", flush=True)


def streams(operation: Any) -> bool:
    """Whether an operation answers with an endless stream (SSE): a generated valid request would never end."""
    ok = operation.definition.raw.get("responses", {}).get("200", {})
    return "text/event-stream" in ok.get("content", {})


def beyond_the_contract(app: Any, *, client: Any, credentials: Credentials, tally: Tally, per_mode: int,
                        seed: int, known_ids: list[str]) -> None:
    """Every operation of ``schemas/openapi.json`` the contract does not define (the extensions under
    ``/v1`` and the seed 000 and 003 surfaces under ``/api/``), each against the hub's own document."""
    contract_ids = set(operations(load_contract()))
    extra = [operation for operation in built_operations(load_schema(app))
             if operation.definition.raw.get("operationId") not in contract_ids and not streams(operation)]
    for operation in extra:
        fuzz_operation(operation, client=client, credentials=credentials, tally=tally, max_examples=per_mode,
                       seed=seed, known_ids=known_ids)
    print(f"beyond the contract: {len(extra)} operations, {tally.cases} cases so far", flush=True)


def run(cases: int, seed: int) -> Tally:
    from hub.app import create_app
    from tests.contract.test_operations import PENDING

    app = create_app()
    schema = load_schema(app, add_links(fuzz_document(app, PENDING)))
    credentials, tally = Credentials(), Tally()
    contract_operations = built_operations(schema)
    per_mode = max(50, cases // (2 * 2 * len(contract_operations)))  # about half the budget goes to this phase
    with asgi.get_client(app) as client:
        known_ids = seed_subscriptions(client, credentials)
        for operation in contract_operations:
            fuzz_operation(operation, client=client, credentials=credentials, tally=tally, max_examples=per_mode,
                           seed=seed, known_ids=known_ids)
        print(f"stateless phase: {tally.cases} cases", flush=True)
        beyond_the_contract(app, client=client, credentials=credentials, tally=tally, per_mode=per_mode,
                            seed=seed, known_ids=known_ids)
        chains = [load_schema(app, chains_document(app, family)) for family in FAMILIES]
        for round_ in range(40):  # bounded: each round adds scenarios until the count is reached
            if tally.cases >= cases and round_ >= 1:
                break
            scenarios = max(40, (cases - tally.cases) // 40)
            stateful_phase(schema, client, credentials, tally, scenarios=scenarios, seed=seed + round_)
            for family in chains:
                stateful_phase(family, client, credentials, tally, scenarios=scenarios, seed=seed + round_,
                               prepare=prepare_chain, label="chained")
            print(f"after stateful round {round_ + 1}: {tally.cases} cases", flush=True)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000, help="requests to make at least")
    parser.add_argument("--seed", type=int, default=SEED, help="hypothesis seed")
    args = parser.parse_args(argv)
    started = time.monotonic()
    with isolated_environment():
        tally = run(args.cases, args.seed)
    linked = sorted(f"{label}: {status}×{count}" for (label, status), count in tally.by_operation.items()
                    if label.endswith(("(stateful)", "(chained)")) and 200 <= status < 300)
    print("stateful successes:\n  " + "\n  ".join(linked))
    print(f"seed: {args.seed}\n{tally.summary()}\nelapsed: {time.monotonic() - started:.0f} s")
    if tally.failed or tally.cases < args.cases:
        print("fuzz: FAILED" + ("" if tally.failed else f" (only {tally.cases} of {args.cases} cases)"))
        return 1
    print("fuzz: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
