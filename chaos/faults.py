"""Carrying out one fault of the schedule on the cluster or the receivers (blocking for its length)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from chaos.cluster import Cluster
from chaos.consumer import QueueConsumer
from chaos.queues import Queues
from chaos.receivers import Hooks
from chaos.schedule import Fault


@dataclass
class Targets:
    """The run's destinations: the webhook receivers, the queues and the consumer-queue client."""

    hooks: Hooks
    queues: Queues
    consumer: QueueConsumer | None = None


def _kill(cluster: Cluster, kind: str, seconds: float, rng: random.Random) -> str:
    victim = rng.choice(cluster.processes[kind])
    victim.kill9()
    time.sleep(seconds)  # the orchestrator's restart delay
    victim.start()
    return victim.name


def _receiver_down(hooks: Hooks, seconds: float, rng: random.Random) -> str:
    host = rng.choice(hooks.fault_hosts())
    hooks.set_down(host, True)
    time.sleep(seconds)
    hooks.set_down(host, False)
    return host


def _dns_failure(hooks: Hooks, seconds: float, rng: random.Random) -> str:
    host = rng.choice(hooks.fault_hosts())
    hooks.dns_fail(host, True)
    time.sleep(seconds)
    hooks.dns_fail(host, False)
    return host


def _rebalance(cluster: Cluster, seconds: float) -> str:
    """One more ingest joins the group while records flow, then leaves by kill -9 (two rebalances)."""
    extra = cluster.add("ingest")
    time.sleep(seconds)
    extra.kill9()
    cluster.processes["ingest"].remove(extra)
    return extra.name


def _consumer_disconnect(consumer: QueueConsumer | None, seconds: float) -> str:
    """The client cuts its stream right after its next ack (it reconnects by itself)."""
    assert consumer is not None, "the run has no consumer-queue client"
    consumer.cut.set()
    time.sleep(seconds)
    return "consumer-queue client"


def inject(fault: Fault, cluster: Cluster, targets: Targets, rng: random.Random) -> str:
    """Carry out FAULT; returns what it hit (a process, a service or a host name)."""
    hooks = targets.hooks
    if fault.kind.startswith("kill_"):
        return _kill(cluster, fault.kind.removeprefix("kill_"), fault.seconds, rng)
    if fault.kind == "restart_postgres":
        cluster.restart_postgres(fault.seconds)
        return "postgresql"
    if fault.kind == "restart_kafka":
        cluster.restart_kafka(fault.seconds)
        return "kafka"
    if fault.kind == "restart_rabbitmq":
        targets.queues.restart_rabbitmq(fault.seconds)
        return "rabbitmq"
    if fault.kind == "receiver_down":
        return _receiver_down(hooks, fault.seconds, rng)
    if fault.kind == "dns_failure":
        return _dns_failure(hooks, fault.seconds, rng)
    if fault.kind == "rebalance":
        return _rebalance(cluster, fault.seconds)
    if fault.kind == "consumer_disconnect":
        return _consumer_disconnect(targets.consumer, fault.seconds)
    raise ValueError(f"unknown fault kind {fault.kind!r}")
