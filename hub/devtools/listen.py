"""``hub listen``: a local webhook receiver that checks every request's Standard Webhooks signature.

Like ``stripe listen`` and ``svix listen``: it serves HTTPS (a certificate from a local CA it
keeps, see :mod:`hub.devtools.certs`) or plain HTTP on loopback, verifies each POST with the
``standardwebhooks`` library and the subscription's signing secret, prints one line per request
(the CloudEvent's type and id, the ``webhook-id`` and the verdict), and answers 200 to a good
signature and 401 to a bad or missing one. Any path is accepted.
"""

from __future__ import annotations

import ipaddress
import signal
import socket
import ssl
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson
from standardwebhooks import Webhook
from standardwebhooks.webhooks import EmptyWebhookSecretError, WebhookVerificationError

MAX_BODY_BYTES = 4 * 1024 * 1024
HANDSHAKE_TIMEOUT_SECONDS = 10.0
OK, UNAUTHORIZED, TOO_LARGE, NOT_ALLOWED = 200, 401, 413, 405


class ListenError(Exception):
    """The receiver cannot start as asked; the message says why."""


@dataclass(frozen=True)
class Verdict:
    """What the receiver made of one request."""

    status: int
    signature_ok: bool
    reason: str
    event_type: str
    ce_id: str
    webhook_id: str

    def line(self, method: str = "POST", path: str = "/") -> str:
        """The printed line: time, event, ids, verdict and the status answered."""
        stamp = datetime.now().strftime("%H:%M:%S")
        verdict = "signature ok" if self.signature_ok else f"signature BAD ({self.reason})"
        return (f"{stamp}  {method} {path}  {self.event_type or '-'}  id={self.ce_id or '-'}  "
                f"webhook-id={self.webhook_id or '-'}  {verdict}  -> {self.status}")


def make_verifier(secret: str) -> Webhook:
    """The Standard Webhooks verifier for a ``whsec_…`` signing secret."""
    try:
        return Webhook(secret)
    except (EmptyWebhookSecretError, ValueError, RuntimeError):
        raise ListenError("--secret is not a Standard Webhooks secret (whsec_ followed by base64)") from None


def _event_fields(body: bytes) -> tuple[str, str]:
    """The CloudEvent's type and id from a structured-mode body, or blanks when it is not one."""
    try:
        event = orjson.loads(body)
    except orjson.JSONDecodeError:
        return "(not JSON)", ""
    if not isinstance(event, dict):
        return "(not an event)", ""
    return str(event.get("type", "")), str(event.get("id", ""))


def judge(verifier: Webhook, body: bytes, headers: Mapping[str, str]) -> Verdict:
    """Verify one request's signature over the exact body bytes; 200 when it holds, 401 when not."""
    event_type, ce_id = _event_fields(body)
    webhook_id = next((value for name, value in headers.items() if name.lower() == "webhook-id"), "")
    try:
        verifier.verify(body, dict(headers), json_parse=False)
    except WebhookVerificationError as exc:
        return Verdict(UNAUTHORIZED, False, str(exc), event_type, ce_id, webhook_id)
    except ValueError:  # a malformed signature list, base64 or body encoding
        return Verdict(UNAUTHORIZED, False, "malformed signature headers or body", event_type, ce_id, webhook_id)
    return Verdict(OK, True, "", event_type, ce_id, webhook_id)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the hub's client expects
    server: ReceiverServer

    def do_POST(self) -> None:  # noqa: N802 (the http.server naming)
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            self.close_connection = True
            self._answer(TOO_LARGE)
            self.server.emit(f"{datetime.now():%H:%M:%S}  POST {self.path}  body of {length} bytes refused -> 413")
            return
        body = self.rfile.read(length) if length else b""
        verdict = judge(self.server.verifier, body, dict(self.headers.items()))
        self._answer(verdict.status)
        self.server.emit(verdict.line("POST", self.path))
        if self.server.show_body:
            self.server.emit("    " + body.decode(errors="replace"))

    def _refuse(self) -> None:
        self._answer(NOT_ALLOWED)
        self.server.emit(f"{datetime.now():%H:%M:%S}  {self.command} {self.path}  not a webhook delivery -> 405")

    do_GET = do_PUT = do_PATCH = do_DELETE = do_HEAD = _refuse  # noqa: N815

    def _answer(self, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        """Silenced: each request is printed once, as its verdict line."""


class ReceiverServer(ThreadingHTTPServer):
    """The receiver: one thread per connection; TLS handshakes run in that thread, not the accept loop."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], *, verifier: Webhook, tls: ssl.SSLContext | None,
                 emit: Callable[[str], None], show_body: bool = False) -> None:
        self.verifier, self.tls, self.show_body = verifier, tls, show_body
        self._emit, self._lock = emit, threading.Lock()
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, _Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        shown = f"[{host}]" if ":" in host else host
        return f"{'https' if self.tls else 'http'}://{shown}:{port}/"

    def emit(self, line: str) -> None:
        with self._lock:
            self._emit(line)

    def get_request(self) -> tuple[socket.socket, Any]:
        raw, client = self.socket.accept()
        if self.tls is None:
            return raw, client
        return self.tls.wrap_socket(raw, server_side=True, do_handshake_on_connect=False), client

    def finish_request(self, request: Any, client_address: Any) -> None:
        if self.tls is not None:
            request.settimeout(HANDSHAKE_TIMEOUT_SECONDS)
            try:
                request.do_handshake()
            except (ssl.SSLError, OSError) as exc:
                self.emit(f"{datetime.now():%H:%M:%S}  TLS handshake failed from {client_address[0]} "
                          f"({type(exc).__name__}: does the client trust the CA?)")
                return
            request.settimeout(None)
        super().finish_request(request, client_address)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that goes away mid-request is not the receiver's error: say so in one line."""
        self.emit(f"{datetime.now():%H:%M:%S}  connection from {client_address[0]} ended abruptly")


def is_loopback(host: str) -> bool:
    """Whether HOST is a loopback address or ``localhost``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def make_receiver(*, secret: str, host: str, port: int, tls: ssl.SSLContext | None,
                  emit: Callable[[str], None], show_body: bool = False) -> ReceiverServer:
    """A bound (not yet serving) receiver; plain HTTP is allowed on loopback only."""
    if tls is None and not is_loopback(host):
        raise ListenError("plain HTTP is served on loopback only; drop --http to serve HTTPS")
    verifier = make_verifier(secret)
    try:
        return ReceiverServer((host.strip("[]"), port), verifier=verifier, tls=tls, emit=emit,
                              show_body=show_body)
    except OSError as exc:
        raise ListenError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def _banner(receiver: ReceiverServer, ca_path: Any) -> list[str]:
    """What the receiver prints on start: where it listens and what the hub needs to reach it."""
    lines = [f"hub listen: receiving webhooks on {receiver.url} (any path); Ctrl-C stops"]
    if ca_path is not None:
        lines += [f"  local CA certificate: {ca_path}",
                  f"  the hub needs: HUB_WEBHOOK_CA_BUNDLE={ca_path} HUB_EGRESS_ALLOW_CIDRS=127.0.0.0/8"]
    else:
        lines.append("  the hub needs: HUB_EGRESS_ALLOW_CIDRS=127.0.0.0/8 (and it sends to https:// endpoints only)")
    return lines


def run_listen(*, secret: str | None, host: str, port: int, http: bool, ca_dir: str | None,
               print_ca: bool, show_body: bool) -> None:
    """The ``hub listen`` command: serve until interrupted (exit 2 when it cannot start)."""
    from pathlib import Path

    from hub.devtools.certs import DEFAULT_CA_DIR, load_or_create_ca, server_context

    def say(line: str) -> None:
        print(line, flush=True)

    directory = Path(ca_dir) if ca_dir else DEFAULT_CA_DIR
    try:
        if print_ca:
            say(str(load_or_create_ca(directory)[1]))
            return
        if not secret:
            raise ListenError("--secret is required: the subscription's signing secret (signingSecret)")
        ca_path, tls = None, None
        if not http:
            ca, ca_path = load_or_create_ca(directory)
            tls = server_context(ca, host.strip("[]"))
        receiver = make_receiver(secret=secret, host=host, port=port, tls=tls, emit=say, show_body=show_body)
    except ListenError as exc:
        print(f"hub listen: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    for line in _banner(receiver, ca_path):
        say(line)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    server_thread = threading.Thread(target=receiver.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    server_thread.start()
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    receiver.shutdown()
    receiver.server_close()
