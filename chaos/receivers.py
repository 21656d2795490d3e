"""The run's webhook receivers: real HTTPS servers on loopback (trustme), each in a process of its own
(``chaos.receiverd``), named through a loopback DNS server that the hub's resolver setting points at, so
a DNS failure is one zone entry away."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import orjson
import trustme

from chaos.ordering import Receipts
from devkit.dnsserver import DnsServer, dns_server
from devkit.processes import stop

TIMEOUT_MS = 1500
ROOT = Path(__file__).resolve().parent.parent
ORDERED_HOST = "ordered.chaos.test"  # the ordered subscription's receiver (chaos.ordering): flaky too


@dataclass
class Hooks:
    """The receivers by host name (their ports), which are flaky, the DNS server, the CA bundle to
    trust and the folder the receivers note what they answered in."""

    dns: DnsServer
    ca_bundle: Path
    folder: Path
    ports: dict[str, int]
    flaky: dict[str, bool]

    def url(self, host: str) -> str:
        return f"https://{host}:{self.ports[host]}/hooks/{host.split('.')[0]}"

    def steady_hosts(self) -> list[str]:
        return [host for host, flaky in self.flaky.items() if not flaky]

    def fault_hosts(self) -> list[str]:
        """The hosts a receiver-down or DNS fault may hit: the steady ones and the ordered one."""
        return [*self.steady_hosts(), ORDERED_HOST]

    def set_down(self, host: str, down: bool) -> None:
        """While down, the receiver resets every connection it is sent."""
        flag = self.folder / f"{host}.down"
        if down:
            flag.touch()
        else:
            flag.unlink(missing_ok=True)

    def answered(self, host: str) -> list[list[str | None]]:
        """Each request HOST answered 200 (or answered late), as [webhook-id, partitionkey, event id]."""
        path = self.folder / f"{host}.receipts"
        lines = path.read_bytes().splitlines() if path.exists() else []
        return [orjson.loads(line) for line in lines]

    @property
    def receipts(self) -> Receipts:
        """The ordered receiver's successes in arrival order, as (key, CloudEvent id)."""
        return Receipts(arrivals=[(key, ce_id) for _, key, ce_id in self.answered(ORDERED_HOST)
                                  if key is not None and ce_id is not None])

    def received(self) -> Counter[str]:
        """Every webhook-id answered 200 (or answered slowly), with how many times."""
        return Counter(webhook_id for host in self.ports for webhook_id, _, _ in self.answered(host))

    def dns_fail(self, host: str, failing: bool) -> None:
        self.dns.zone[host] = "SERVFAIL" if failing else [("A", "127.0.0.1")]


@contextmanager
def _receiver_process(host: str, folder: Path, seed: int, flaky: bool) -> Iterator[int]:
    """One ``chaos.receiverd`` child serving HOST; yields its port."""
    command = [sys.executable, "-m", "chaos.receiverd", host, "--folder", str(folder), "--seed", str(seed)]
    child = subprocess.Popen([*command, *(["--flaky"] if flaky else [])], cwd=ROOT, stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        if not line.strip():
            raise RuntimeError(f"the receiver for {host} did not start")
        yield int(line)
    finally:
        stop(child, timeout=10)


@contextmanager
def webhook_receivers(seed: int, folder: Path, steady: int = 2) -> Iterator[Hooks]:
    """STEADY well-behaved receivers, one flaky one and the ordered subscription's flaky one, each under
    its own name and in its own process."""
    ca = trustme.CA()
    bundle = folder / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    ca.private_key_pem.write_to_path(str(folder / "ca.key"))
    hosts = [f"steady{n}.chaos.test" for n in range(1, steady + 1)] + ["flaky.chaos.test", ORDERED_HOST]
    flaky = {host: host.startswith(("flaky", "ordered")) for host in hosts}
    with ExitStack() as stack:
        dns = stack.enter_context(dns_server({host: [("A", "127.0.0.1")] for host in hosts}))
        ports = {host: stack.enter_context(_receiver_process(host, folder, seed, flaky[host])) for host in hosts}
        yield Hooks(dns, bundle, folder, ports, flaky)
