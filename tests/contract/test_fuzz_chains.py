"""``make fuzz``'s chains and seed (issue 55): every link of a chain leaves a declared answer of an operation
in its family's document and reaches an operation there; ``make fuzz SEED=n`` passes the seed on."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hub.app import create_app
from tests.contract.fuzz_chains import CHAIN_LINKS, FAMILIES, chains_document

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_link_joins_two_operations_of_the_family(family: str) -> None:
    document = chains_document(create_app(), family)
    operations = {operation["operationId"]: operation for item in document["paths"].values()
                  for operation in item.values() if isinstance(operation, dict)}
    assert set(FAMILIES[family]) <= set(operations)
    links = [(source, status, link) for source, operation in operations.items()
             for status, response in operation["responses"].items() for link in response.get("links", {}).values()]
    assert links
    for source, status, link in links:
        assert link["operationId"] in operations, (source, status, link)
        assert (source, status) in CHAIN_LINKS
    assert not any("text/event-stream" in operation["responses"].get("200", {}).get("content", {})
                   for operation in operations.values())


def test_the_chains_cover_the_four_areas_of_issue_55() -> None:
    reached = {target for targets in CHAIN_LINKS.values() for target in targets}
    assert {"putSubscriptionDeliveryOptions", "resumeSubscriptionBlockedKey", "listSubscriptionDeliveries",
            "resendSubscriptionDelivery", "getSubscriptionRecovery", "getDurableQueue", "updateDurableQueue",
            "deleteDurableQueue", "brokerGetConfig", "brokerDeleteConfig"} <= reached


@pytest.mark.parametrize(("seed", "argument"), [("55", "--seed 55"), ("", "")])
def test_make_fuzz_passes_the_seed_on(seed: str, argument: str) -> None:
    shown = subprocess.run(["make", "-n", "--no-print-directory", "fuzz", f"SEED={seed}"], cwd=REPO,
                           capture_output=True, text=True, timeout=60, check=True).stdout
    line = next(line for line in shown.splitlines() if "-m tests.contract.fuzz" in line)
    assert line.rstrip().endswith(f"-m tests.contract.fuzz {argument}".rstrip())
