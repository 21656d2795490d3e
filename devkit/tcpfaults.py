"""TCP servers on loopback that fail in one way each, for the transport failures of an HTTPS client.

``silent`` accepts and never speaks (a handshake that never ends), ``close`` accepts and closes at once,
``reset`` accepts and resets (RST), ``plain`` answers plain HTTP where TLS was expected.
"""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

BEHAVIOURS = ("silent", "close", "reset", "plain")


@dataclass
class FaultyServer:
    port: int
    behaviour: str
    connections: int = 0
    held: list[socket.socket] = field(default_factory=list)


def _serve_one(server: FaultyServer, conn: socket.socket) -> None:
    if server.behaviour == "silent":
        server.held.append(conn)  # kept open, unanswered, until the server stops
        return
    if server.behaviour == "reset":
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    elif server.behaviour == "plain":
        conn.recv(4096)
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    conn.close()


@contextmanager
def faulty_server(behaviour: str, bind: str = "127.0.0.1") -> Iterator[FaultyServer]:
    """Serve ``behaviour`` (one of :data:`BEHAVIOURS`) on a free port of ``bind``."""
    if behaviour not in BEHAVIOURS:
        raise ValueError(f"behaviour is one of {BEHAVIOURS}")
    sock = socket.socket()
    sock.bind((bind, 0))
    sock.listen(64)
    sock.settimeout(0.05)
    server = FaultyServer(port=sock.getsockname()[1], behaviour=behaviour)
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except (TimeoutError, OSError):
                continue
            server.connections += 1
            try:
                _serve_one(server, conn)
            except OSError:
                conn.close()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        stop.set()
        thread.join(timeout=2)
        for conn in server.held:
            conn.close()
        sock.close()
