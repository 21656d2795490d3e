"""The run's webhook receivers: real HTTPS servers on loopback (trustme), named through a loopback
DNS server that the hub's resolver setting points at, so a DNS failure is one zone entry away."""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import trustme

from chaos.ordering import Receipts
from devkit.dnsserver import DnsServer, dns_server
from devkit.receiver import Received, Receiver, Reply, https_receiver

# A request to the flaky receiver sleeps this long when it is "slow": past the subscription's timeout.
SLOW_SECONDS = 2.5
TIMEOUT_MS = 1500


@dataclass
class Script:
    """What one receiver answers. ``down`` resets every request; a flaky one misbehaves at random
    (seeded): 5xx, connection resets, answers slower than the timeout, 429 with Retry-After."""

    flaky: bool
    rng: random.Random
    down: bool = False
    received_ok: Counter[str] = field(default_factory=Counter)
    receipts: Receipts | None = None  # the ordered receiver's: each success with its key, in arrival order
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, item: Received) -> object:
        with self.lock:
            if self.down:
                return "reset"
            roll = self.rng.random() if self.flaky else 1.0
            if roll >= 0.2:
                # Answered 200, now or (slow) after the hub gave up: either way it was received.
                self.received_ok[item.headers.get("webhook-id", "")] += 1
                if self.receipts is not None:
                    self.receipts.note(item.body)
        if roll < 0.1:
            return Reply(500)
        if roll < 0.15:
            return "reset"
        if roll < 0.2:
            return Reply(429, {"Retry-After": "1"})
        if roll < 0.25:
            return ("sleep", SLOW_SECONDS)
        return Reply(200)


@dataclass
class Hooks:
    """The receivers by host name, their scripts, the DNS server and the CA bundle to trust."""

    dns: DnsServer
    ca_bundle: Path
    receivers: dict[str, Receiver]
    scripts: dict[str, Script]

    def url(self, host: str) -> str:
        return f"https://{host}:{self.receivers[host].port}/hooks/{host.split('.')[0]}"

    def steady_hosts(self) -> list[str]:
        return [host for host, script in self.scripts.items() if not script.flaky]

    def fault_hosts(self) -> list[str]:
        """The hosts a receiver-down or DNS fault may hit: the steady ones and the ordered one."""
        return [*self.steady_hosts(), ORDERED_HOST]

    @property
    def receipts(self) -> Receipts:
        receipts = self.scripts[ORDERED_HOST].receipts
        assert receipts is not None
        return receipts

    def received(self) -> Counter[str]:
        """Every webhook-id answered 200 (or answered slowly), with how many times."""
        total: Counter[str] = Counter()
        for script in self.scripts.values():
            with script.lock:
                total.update(script.received_ok)
        return total

    def dns_fail(self, host: str, failing: bool) -> None:
        self.dns.zone[host] = "SERVFAIL" if failing else [("A", "127.0.0.1")]


ORDERED_HOST = "ordered.chaos.test"  # the ordered subscription's receiver (chaos.ordering): flaky too


@contextmanager
def webhook_receivers(seed: int, folder: Path, steady: int = 2) -> Iterator[Hooks]:
    """STEADY well-behaved receivers, one flaky one and the ordered subscription's flaky one, each under
    its own name."""
    ca = trustme.CA()
    bundle = folder / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    hosts = [f"steady{n}.chaos.test" for n in range(1, steady + 1)] + ["flaky.chaos.test", ORDERED_HOST]
    with ExitStack() as stack:
        dns = stack.enter_context(dns_server({host: [("A", "127.0.0.1")] for host in hosts}))
        scripts = {host: Script(flaky=host.startswith(("flaky", "ordered")), rng=random.Random(f"{seed}:{host}"),
                                receipts=Receipts() if host == ORDERED_HOST else None)
                   for host in hosts}
        receivers = {host: stack.enter_context(https_receiver(ca, (host,), scripts[host])) for host in hosts}
        yield Hooks(dns, bundle, receivers, scripts)
