"""CPU seconds of the stack's own services (RabbitMQ, Kafka, PostgreSQL), from /proc, for per-event accounting.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

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


def services_cpu_seconds() -> dict[str, float]:
    """CPU seconds spent so far by every live process of each service in :data:`SERVICES`."""
    spent = dict.fromkeys(SERVICES, 0.0)
    for pid in filter(str.isdigit, os.listdir("/proc")):
        found = _process(pid)
        if found is None:
            continue
        for name, marker in SERVICES.items():
            if marker in found[0]:
                spent[name] += found[1]
                break
    return spent


def cpu_snapshot(pids: dict[str, int], clients_seconds: float) -> dict[str, float]:
    """CPU seconds so far of each of PIDS (with its descendants), of the stack's services, and CLIENTS_SECONDS
    (what the bench's own clients spent, as the caller counts it)."""
    from bench._publish_procs import tree_cpu_seconds

    spent = {name: tree_cpu_seconds(pid) for name, pid in pids.items()}
    spent.update(services_cpu_seconds())
    spent["clients"] = clients_seconds
    return spent


def per_event_line(before: dict[str, float], after: dict[str, float], events: int) -> str:
    """One line: CPU µs per event of each part between two snapshots, their sum, and the rate the machine's
    cores could carry at that cost if nothing else ran (the ceiling of this pipeline here)."""
    spent = {name: (after[name] - before[name]) / events * 1e6 for name in after}
    total = sum(spent.values())
    parts = ", ".join(f"{name} {value:,.0f}" for name, value in spent.items())
    return (f"  CPU µs/event: {parts}; total {total:,.0f} -> {os.cpu_count()} cores carry at most "
            f"{os.cpu_count() * 1e6 / total:,.0f} ev/s")
