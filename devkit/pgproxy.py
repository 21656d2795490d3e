"""A loopback TCP proxy in front of PostgreSQL that can cut a connection at its next COMMIT.

It models the one fault an at-most-once mutation cannot see through: the connection fails while
the COMMIT is in flight. ``cut_next_commit(before=True)`` drops the connection instead of passing
the COMMIT on (nothing lands); ``before=False`` passes it on and drops the connection before the
server's reply reaches the client (the transaction lands, the client cannot know).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

CHUNK = 65536


@dataclass
class PgProxy:
    address: tuple[str, int]
    upstream: tuple[str, int]
    armed: str | None = None  # "before" or "after": cut at the next COMMIT
    cuts: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def cut_next_commit(self, *, before: bool) -> None:
        with self.lock:
            self.armed = "before" if before else "after"

    def _take_cut(self, chunk: bytes) -> str | None:
        with self.lock:
            if self.armed and b"COMMIT" in chunk.upper():
                mode, self.armed = self.armed, None
                self.cuts += 1
                return mode
        return None

    def _pump_to_server(self, client: socket.socket, server: socket.socket) -> None:
        with suppress(OSError):
            while chunk := client.recv(CHUNK):
                mode = self._take_cut(chunk)
                if mode == "after":
                    server.sendall(chunk)
                if mode:
                    _close(client, server)
                    return
                server.sendall(chunk)
        _close(client, server)

    def _pump_to_client(self, server: socket.socket, client: socket.socket) -> None:
        with suppress(OSError):
            while chunk := server.recv(CHUNK):
                client.sendall(chunk)
        _close(client, server)

    def serve(self, listener: socket.socket, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            server = socket.create_connection(self.upstream, timeout=5)
            server.settimeout(None)
            client.settimeout(None)
            threading.Thread(target=self._pump_to_server, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump_to_client, args=(server, client), daemon=True).start()


def _close(*sockets: socket.socket) -> None:
    for sock in sockets:
        with suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        with suppress(OSError):
            sock.close()


@contextmanager
def pg_proxy(upstream: tuple[str, int]) -> Iterator[PgProxy]:
    """A proxy on a free 127.0.0.1 port forwarding to ``upstream``."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.1)
    proxy = PgProxy(address=listener.getsockname(), upstream=upstream)
    stop = threading.Event()
    thread = threading.Thread(target=proxy.serve, args=(listener, stop), daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        stop.set()
        thread.join(timeout=2)
        listener.close()
