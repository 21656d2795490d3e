"""A tiny real DNS server on loopback UDP, answering from a mutable zone (test support, not a fake resolver)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import dns.message
import dns.rcode
import dns.rdatatype
import dns.rrset

# A zone entry is a list of (rdtype, address) answers, or an rcode name ("NXDOMAIN", "SERVFAIL"), or "DROP".
Entry = list[tuple[str, str]] | str


@dataclass
class DnsServer:
    address: str
    zone: dict[str, Entry]
    queries: list[tuple[str, str]] = field(default_factory=list)

    def count(self, name: str) -> int:
        return sum(1 for queried, _ in self.queries if queried == name)


def _answer(server: DnsServer, wire: bytes) -> bytes | None:
    query = dns.message.from_wire(wire)
    question = query.question[0]
    name = question.name.to_text(omit_final_dot=True).lower()
    rdtype = dns.rdatatype.to_text(question.rdtype)
    server.queries.append((name, rdtype))
    entry = server.zone.get(name, "NXDOMAIN")
    if entry == "DROP":
        return None
    response = dns.message.make_response(query)
    if isinstance(entry, str):
        response.set_rcode(dns.rcode.from_text(entry))
        return response.to_wire()
    addresses = [address for kind, address in entry if kind == rdtype]
    if addresses:
        response.answer.append(dns.rrset.from_text_list(question.name, 30, "IN", rdtype, addresses))
    return response.to_wire()


@contextmanager
def dns_server(zone: dict[str, Entry] | None = None, *, silent: bool = False) -> Iterator[DnsServer]:
    """Serve ``zone`` on a free 127.0.0.1 UDP port; ``silent`` never answers anything."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(0.1)
    server = DnsServer(address=f"127.0.0.1:{sock.getsockname()[1]}", zone=dict(zone or {}))
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            try:
                wire, peer = sock.recvfrom(4096)
            except TimeoutError:
                continue
            if silent:
                server.queries.append(("?", "?"))
                continue
            reply = _answer(server, wire)
            if reply is not None:
                sock.sendto(reply, peer)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        stop.set()
        thread.join(timeout=2)
        sock.close()
