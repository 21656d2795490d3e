"""A seeded fault schedule: which fault, when, and for how long (the same seed gives the same run)."""

from __future__ import annotations

import random
from dataclasses import dataclass

# Every fault kind the runner knows. ``kill_*`` is kill -9 (and a restart a moment later, as an
# orchestrator would); ``restart_*`` stops a service hard and starts it again; ``receiver_down``
# makes a steady webhook receiver reset every connection; ``dns_failure`` makes the hub's resolver
# answer SERVFAIL for a receiver's name; ``rebalance`` adds an ingest process mid-batch and removes
# it (kill -9) when the window ends, so the consumer group rebalances twice; ``consumer_disconnect``
# makes the consumer-queue client cut its gRPC stream right after an ack and reconnect.
FULL_KINDS = ("kill_api", "kill_ingest", "kill_deliver", "kill_grpc", "kill_relay", "restart_postgres",
              "restart_kafka", "restart_rabbitmq", "receiver_down", "dns_failure", "rebalance", "consumer_disconnect")
SHORT_KINDS = ("kill_api", "kill_ingest", "kill_deliver", "restart_postgres", "receiver_down")

# How long each kind lasts (seconds) in the full and the short form.
FULL_SECONDS = {"kill_api": 1.0, "kill_ingest": 1.0, "kill_deliver": 1.0, "kill_grpc": 1.0, "kill_relay": 1.0,
                "restart_postgres": 6.0, "restart_kafka": 3.0, "restart_rabbitmq": 5.0, "receiver_down": 60.0,
                "dns_failure": 30.0, "rebalance": 12.0, "consumer_disconnect": 2.0}
SHORT_SECONDS = {**FULL_SECONDS, "restart_postgres": 3.0, "receiver_down": 8.0}


@dataclass(frozen=True)
class Fault:
    """One fault: KIND starts AT seconds after the traffic starts and lasts SECONDS."""

    number: int
    kind: str
    at: float
    seconds: float


def make_schedule(seed: int, faults: int, *, short: bool) -> list[Fault]:
    """FAULTS faults, every kind at least once when there are enough, one every ~SPACING seconds.

    Faults do not overlap (each starts after the previous one ended and its service is back), so
    the moment of each is the previous end plus a seeded pause.
    """
    rng = random.Random(seed)
    kinds = SHORT_KINDS if short else FULL_KINDS
    durations = SHORT_SECONDS if short else FULL_SECONDS
    chosen = list(kinds)[:faults]
    rng.shuffle(chosen)
    chosen += [rng.choice(kinds) for _ in range(faults - len(chosen))]
    pause = (2.0, 6.0) if short else (4.0, 14.0)
    schedule, moment = [], rng.uniform(*pause)
    for number, kind in enumerate(chosen, start=1):
        schedule.append(Fault(number, kind, round(moment, 2), durations[kind]))
        moment += durations[kind] + rng.uniform(*pause)
    return schedule


def describe(schedule: list[Fault]) -> str:
    """The schedule, one fault a line (printed with the seed, so a failing run can be replayed)."""
    return "\n".join(f"  #{f.number:<3} t+{f.at:7.2f}s  {f.kind:<19} {f.seconds:5.1f}s" for f in schedule)
