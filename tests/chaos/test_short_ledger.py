"""The short chaos run (docs/chaos.md): five faults from a fresh seed, and the ledger must balance.

The run is a child process (``python -m chaos --short``) on its own PostgreSQL cluster and Kafka
broker, so restarting them never disturbs the shared stack or the other tests. On failure the
output (seed, schedule, faults, ledger) is shown: ``python -m chaos --short --seed N`` replays it.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from hub.config import REPO_ROOT

pytestmark = pytest.mark.slow

BUDGET_SECONDS = 180


@pytest.mark.timeout(BUDGET_SECONDS + 30)
def test_short_chaos_ledger_balances() -> None:
    result = subprocess.run([sys.executable, "-m", "chaos", "--short"], cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=BUDGET_SECONDS, check=False)
    print(result.stdout)
    assert result.returncode == 0, f"{result.stdout[-6000:]}\n{result.stderr[-3000:]}"
    assert "ledger balances" in result.stdout
