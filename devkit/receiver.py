"""A real HTTPS webhook receiver on loopback (trustme certificate), scriptable per request.

``script(request)`` returns what to do with each request: a :class:`Reply`, or one of the
misbehaviours ``"reset"`` (RST after reading the request), ``"reset_mid"`` (half a response, then
RST), ``"garbage"`` (bytes that are not HTTP) or ``("sleep", seconds)`` before answering 200.
"""

from __future__ import annotations

import socket
import ssl
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import trustme


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b"ok"


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


Script = Callable[[Received], Any]


@dataclass
class Receiver:
    port: int
    received: list[Received] = field(default_factory=list)
    server_names: list[str | None] = field(default_factory=list)
    connections: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def bodies(self) -> list[bytes]:
        with self.lock:
            return [item.body for item in self.received]


def _rst(sock: socket.socket) -> None:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _handler(state: Receiver, script: Script, keep_requests: bool = True) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            super().setup()
            with state.lock:
                state.connections += 1

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            item = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, self.rfile.read(length))
            if keep_requests:
                with state.lock:
                    state.received.append(item)
            self._act(script(item))

        def _act(self, action: Any) -> None:
            if isinstance(action, tuple) and action[0] == "sleep":
                time.sleep(action[1])
                action = Reply()
            if action == "reset":
                _rst(self.connection)
                self.close_connection = True
                return
            if action == "reset_mid":
                self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial")
                self.wfile.flush()
                _rst(self.connection)
                self.close_connection = True
                return
            if action == "garbage":
                self.wfile.write(b"\x00\x17garbage that is not HTTP at all\r\n\r\n" * 50)
                self.wfile.flush()
                self.close_connection = True
                return
            reply = action if isinstance(action, Reply) else Reply()
            self.send_response(reply.status)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            try:
                self.wfile.write(reply.body)
            except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
                self.close_connection = True

        def log_message(self, *_: object) -> None:
            pass

    return Handler


@contextmanager
def https_receiver(ca: trustme.CA, names: tuple[str, ...], script: Script | None = None,
                   port: int = 0, bind: str = "127.0.0.1", keep_requests: bool = True) -> Iterator[Receiver]:
    """Serve HTTPS on ``bind`` (a loopback address) with a certificate for ``names``; yields the receiver's
    state (with every request it got, unless ``keep_requests`` is false)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(*names).configure_cert(context)
    state = Receiver(port=0)
    context.sni_callback = lambda _sock, name, _ctx: state.server_names.append(name)

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        allow_reuse_address = True
        request_queue_size = 512

        def get_request(self):  # noqa: ANN202
            sock, address = super().get_request()
            return context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False), address

        def handle_error(self, request: Any, client_address: Any) -> None:
            pass  # a client that drops the connection is part of the tests

    server = Server((bind, port), _handler(state, script or (lambda _item: Reply()), keep_requests))
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def scripted_receiver(ca: trustme.CA, names: tuple[str, ...]) -> Iterator[Receiver]:
    """A receiver answering from its ``actions`` list (then 200), recording every request."""
    actions: list[Any] = []

    def script(_item: Received) -> Any:
        return actions.pop(0) if actions else Reply()

    with https_receiver(ca, names, script) as state:
        state.actions = actions  # type: ignore[attr-defined]
        yield state
