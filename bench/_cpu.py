"""CPU seconds of the stack's own services (RabbitMQ, Kafka, PostgreSQL), from /proc, for per-event accounting.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

TICKS = os.sysconf("SC_CLK_TCK")
SERVICES = {"rabbitmq": "beam.smp", "kafka": "kafka.Kafka", "postgres": "postgres"}


def _process(pid: str) -> tuple[str, float] | None:
    """(command line, CPU seconds) of PID; None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    return command, (int(fields[11]) + int(fields[12])) / TICKS


def services_cpu_seconds() -> dict[str, dict[str, float]]:
    """CPU seconds spent so far by each live process of each service in :data:`SERVICES`, by pid."""
    spent: dict[str, dict[str, float]] = {name: {} for name in SERVICES}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        found = _process(pid)
        if found is None:
            continue
        for name, marker in SERVICES.items():
            if marker in found[0]:
                spent[name][pid] = found[1]
                break
    return spent


def cpu_snapshot(pids: dict[str, int], clients_seconds: float) -> dict[str, Any]:
    """CPU seconds so far of each of PIDS (with its descendants), of the stack's services (by pid), and
    CLIENTS_SECONDS (what the bench's own clients spent, as the caller counts it)."""
    from bench._publish_procs import tree_cpu_seconds

    spent: dict[str, Any] = {name: tree_cpu_seconds(pid) for name, pid in pids.items()}
    spent.update(services_cpu_seconds())
    spent["clients"] = clients_seconds
    return spent


def _spent(before: Any, after: Any) -> float:
    """Seconds between two readings; for a service, summed over the processes alive at the end (one that
    exited in between is not counted: its last reading is gone, and a negative share would be wrong)."""
    if isinstance(after, dict):
        return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())
    return after - before


def per_event_line(before: dict[str, float], after: dict[str, float], events: int) -> str:
    """One line: CPU µs per event of each part between two snapshots, their sum, and the rate the machine's
    cores could carry at that cost if nothing else ran (the ceiling of this pipeline here)."""
    spent = {name: _spent(before[name], after[name]) / events * 1e6 for name in after}
    total = sum(spent.values())
    parts = ", ".join(f"{name} {value:,.0f}" for name, value in spent.items())
    return (f"  CPU µs/event: {parts}; total {total:,.0f} -> {os.cpu_count()} cores carry at most "
            f"{os.cpu_count() * 1e6 / total:,.0f} ev/s")
