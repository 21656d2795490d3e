"""One run of bench/sustained.py: ``hub dev`` on a scratch database, a paced producer, receipts at nginx.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench._deliver_hub import Session, count_jobs, created_times, stage_split, warm_up, worker_processes
from bench._ingest_setup import Producer, Scratch
from bench._pg_costs import PgWork, per_delivery, pg_snapshot, pg_work
from bench._receiver import Nginx, Receipts, free_port

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
HUB_MODULES = ("workers.cli", "hub.cli")  # the `hub` command's module (``python -m <it> <command>``)
LATENCY_SAMPLE = 20_000  # receipts of the window joined back to their event's CreateTime
DRAIN_MIN_BACKLOG = 5_000
PROFILE_DRAIN_SECONDS = 10  # a smaller backlog drains too fast to give a rate


@dataclass(frozen=True)
class Variant:
    """How ``hub dev`` runs: its process counts and extra ``HUB_*`` settings (the defaults: none)."""

    name: str = "defaults"
    dev_options: tuple[str, ...] = ()  # e.g. ("--ingest-workers", "1")
    env: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> Variant:
        """``name:ingest=1,deliver=2,HUB_X=y`` (every part after the name optional)."""
        name, _, spec = text.partition(":")
        options: list[str] = []
        env: list[tuple[str, str]] = []
        for item in filter(None, spec.split(",")):
            key, _, value = item.partition("=")
            if key in ("ingest", "deliver"):
                options += [f"--{key}-workers", value]
            else:
                env.append((key, value))
        return cls(name or "defaults", tuple(options), tuple(env))


@dataclass(frozen=True)
class Plan:
    """One configuration: K subscriptions per event, R offered deliveries/s (R / K events/s), a variant."""

    subs: int
    rate: int
    variant: Variant = Variant()


@dataclass(frozen=True)
class Timing:
    """A run's shape, in seconds from the first produced event."""

    duration: float
    window_start: float
    window_end: float
    drain_timeout: float
    py_spy: str = ""  # a folder: py-spy profiles of ingest and deliver over the window and the drain


@dataclass
class Outcome:
    """What one run measured."""

    plan: Plan
    offered: float  # deliveries/s the producer actually offered
    delivered: float  # deliveries/s received in the window
    backlog: int  # deliveries offered but not received when the load stopped
    in_kafka: int  # of which not yet ingested (no job yet)
    drain: float | None  # deliveries/s received from the load's stop to the last receipt
    p50: float | None
    p99: float | None
    cpu: dict[str, float] = field(default_factory=dict)  # process -> cores busy over the window
    deliveries_in_window: int = 0
    stages: dict[str, tuple[float, ...]] = field(default_factory=dict)  # bench._deliver_hub.stage_split's
    pg: PgWork | None = None  # PostgreSQL's work over the window (bench._pg_costs)

    def cpu_ms_per_delivery(self, name: str) -> float | None:
        cores = self.cpu.get(name)
        window_rate = self.delivered
        return cores * 1000 / window_rate if cores is not None and window_rate else None

    def pg_per_delivery(self) -> dict[str, float | None]:
        """PostgreSQL's statements, rows written, row versions, HOT updates and WAL bytes per delivery."""
        return per_delivery(self.pg, self.deliveries_in_window)


# -- processes and their CPU ---------------------------------------------------------------------
def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime


def _named_pids(comm: str) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == comm:
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def _machine_busy_seconds() -> float:
    """CPU seconds every core spent busy since boot (all users: other engineers' work shows here)."""
    values = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / CLOCK_TICKS


def hub_processes(dev_pid: int) -> dict[str, list[int]]:
    """The ``hub dev`` tree's children by role (api, ingest, deliver, sweep, dlq-observer)."""
    roles: dict[str, list[int]] = {}
    for pid in _children(dev_pid):
        argv = _cmdline(pid)
        module = next((arg for arg in argv if arg in HUB_MODULES), None)
        role = next(iter(argv[argv.index(module) + 1:]), "?") if module else "?"
        roles.setdefault(role, []).append(pid)
    return roles


def cpu_snapshot(groups: dict[str, list[int]]) -> dict[tuple[str, int], float]:
    """CPU seconds of each (group, process), and of the whole machine under ``("machine", 0)``.

    ``kafka`` and ``postgres`` are looked up again each time: backends come and go.
    """
    groups = {**groups, "kafka": _named_pids("java"), "postgres": _named_pids("postgres")}
    seconds = {(name, pid): _cpu_seconds(pid) for name, pids in groups.items() for pid in pids}
    seconds[("machine", 0)] = _machine_busy_seconds()
    return seconds


def watched_groups(dev_pid: int, nginx: Nginx) -> dict[str, list[int]]:
    """The processes whose CPU a run reports (postgres: every database's backends, not only the bench's)."""
    groups = hub_processes(dev_pid)
    assert nginx.process is not None
    groups["nginx"] = [nginx.process.pid, *_children(nginx.process.pid)]
    groups["producer"] = [os.getpid()]
    return groups


# -- one run ---------------------------------------------------------------------------------------
def hub_dev(session: Session, variant: Variant):  # noqa: ANN201 (a context manager)
    """``hub dev`` as ``make dev`` runs it (its default process counts unless the variant says), on the
    session's names."""
    env = {**session.env, "HUB_API_PORT": str(free_port()), "HUB_DELIVER_METRICS_PORT": "0", **dict(variant.env)}
    return worker_processes([[sys.executable, "-m", "workers.cli", "dev", *variant.dev_options]], env)


def _wait_for_children(dev_pid: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not {"ingest", "deliver", "api"} <= set(hub_processes(dev_pid)):
        if time.monotonic() > deadline:
            raise RuntimeError("hub dev did not start its workers")
        time.sleep(0.2)


def _sleep_until(moment: float) -> None:
    ahead = moment - time.time()
    if ahead > 0:
        time.sleep(ahead)


def run_once(scratch: Scratch, nginx: Nginx, plan: Plan, timing: Timing) -> Outcome:
    """Offer PLAN's load for ``timing.duration`` s to ``hub dev``; count receipts; then let it drain."""
    session = Session(scratch, nginx, plan.subs)
    try:
        events = max(1, int(plan.rate / plan.subs * timing.duration))
        records = session.records(events, seed=random.randrange(1 << 30))
        producer = Producer()
        with hub_dev(session, plan.variant) as procs:
            _wait_for_children(procs[0].pid)
            warm_up(session, procs, plan.subs)
            groups = watched_groups(procs[0].pid, nginx)
            receipts = nginx.receipts(nginx.log_offset())
            warm_jobs = count_jobs(scratch.dsn)
            started = time.time()
            sender = threading.Thread(target=producer.send, args=(session.topic, records),
                                      kwargs={"rate": plan.rate / plan.subs}, daemon=True)
            sender.start()
            _sleep_until(started + timing.window_start)
            before = cpu_snapshot(groups)
            # Inside the CPU snapshots, which keep their timing; the reading backend, alive at neither, is left out.
            pg_before = pg_snapshot(scratch.dsn)
            tag, window = f"{plan.variant.name}-{plan.subs}x{plan.rate}", timing.window_end - timing.window_start
            profiles = _py_spy(timing, groups, f"{tag}-window", window)
            _sleep_until(started + timing.window_end)
            pg_after = pg_snapshot(scratch.dsn)
            after = cpu_snapshot(groups)
            sender.join(timing.duration + 120)
            stopped = time.time()
            profiles += _py_spy(timing, groups, f"{tag}-drain", PROFILE_DRAIN_SECONDS)
            receipts.update()
            backlog = events * plan.subs - len(receipts.seen)
            in_kafka = events * plan.subs - (count_jobs(scratch.dsn) - warm_jobs)
            expected = events * plan.subs
            _drain(receipts, expected, timing.drain_timeout, procs[0])
            for profile in profiles:
                profile.wait(60)
        outcome = _outcome(scratch, plan, timing, producer, receipts.seen, (started, stopped), (backlog, in_kafka),
                           expected, _shares(before, after, timing.window_end - timing.window_start))
        outcome.pg = pg_work(pg_before, pg_after)
        return outcome
    finally:
        session.close()


def _drain(receipts: Receipts, expected: int, timeout: float, dev: subprocess.Popen) -> None:
    """Wait until EXPECTED deliveries were received, or TIMEOUT seconds passed."""
    deadline = time.monotonic() + timeout
    while receipts.update() < expected and time.monotonic() < deadline:
        if dev.poll() is not None:
            raise RuntimeError("hub dev exited during the run")
        time.sleep(0.2)


def _py_spy(timing: Timing, groups: dict[str, list[int]], tag: str, seconds: float) -> list[subprocess.Popen]:
    """Sample each ingest and deliver process for SECONDS (collapsed stacks), when asked to."""
    if not timing.py_spy:
        return []
    folder = Path(timing.py_spy)
    folder.mkdir(parents=True, exist_ok=True)
    return [subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(pid),
                              "--duration", str(int(seconds)), "--rate", "100", "--nonblocking", "--format", "raw",
                              "--output", str(folder / f"{role}{n}-{tag}.txt")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for role in ("ingest", "deliver") for n, pid in enumerate(groups.get(role, []))]


def _shares(before: dict[tuple[str, int], float], after: dict[tuple[str, int], float],
            seconds: float) -> dict[str, float]:
    """Cores each group used between the snapshots, counting the processes alive at both."""
    shares: dict[str, float] = {}
    for key, value in after.items():
        if key in before:
            shares[key[0]] = shares.get(key[0], 0.0) + (value - before[key]) / seconds
    return shares


def _outcome(scratch: Scratch, plan: Plan, timing: Timing, producer: Producer, seen: dict[str, float],
             span: tuple[float, float], backlog: tuple[int, int], expected: int, cpu: dict[str, float]) -> Outcome:
    started, stopped = span
    backlog, in_kafka = backlog
    low, high = (started + timing.window_start) * 1000, (started + timing.window_end) * 1000
    in_window = [wid for wid, moment in seen.items() if low <= moment < high]
    after_stop = [moment for moment in seen.values() if moment >= stopped * 1000]
    drain = None
    if backlog >= DRAIN_MIN_BACKLOG and len(after_stop) > 1 and len(seen) >= expected:
        drain = len(after_stop) / (max(after_stop) / 1000 - stopped)
    sample = random.sample(in_window, min(LATENCY_SAMPLE, len(in_window)))
    created = created_times(scratch.dsn, sample, producer)
    latencies = sorted(seen[wid] - moment for wid, moment in created.items())
    p50 = latencies[len(latencies) // 2] if latencies else None
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else None
    offered = len(producer.created_ms) * plan.subs / max(stopped - started, 1e-9)
    if len(seen) < expected:
        print(f"    {expected - len(seen):,} of {expected:,} deliveries not received within the drain timeout",
              flush=True)
    stages = stage_split(scratch.dsn, {wid: seen[wid] for wid in created}, producer)
    return Outcome(plan, offered, len(in_window) / (timing.window_end - timing.window_start), backlog, in_kafka, drain,
                   p50, p99, cpu, len(in_window), stages)
