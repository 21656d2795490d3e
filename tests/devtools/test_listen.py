"""`hub listen` as a real process: real HTTPS (its own local CA) and HTTP requests, signed with the
`standardwebhooks` library, each answered 200 (good signature) or 401 (bad), and each printed with
the event's type, id, webhook-id and verdict (R-X-SEC-07: a dual-signed request passes on either).
"""

from __future__ import annotations

import base64
import os
import queue
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import orjson
import pytest
from standardwebhooks import Webhook

SECRET = "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()
OTHER_SECRET = "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


class Listener:
    """A running `hub listen` child: its URL, its CA path, and the lines it printed."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.process = process
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        banner = self.next_line()
        self.url = banner.split(" on ", 1)[1].split(" ", 1)[0]
        self.ca_path = ""
        if self.url.startswith("https://"):
            self.ca_path = self.next_line().split(": ", 1)[1]
        self.next_line()  # what the hub needs

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def next_line(self, timeout: float = 20.0) -> str:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("hub listen printed nothing in time") from None


@contextmanager
def listening(tmp_path: Path, *extra: str, secret: str = SECRET) -> Iterator[Listener]:
    argv = [sys.executable, "-m", "hub.cli", "listen", "--port", "0", "--secret", secret,
            "--ca-dir", str(tmp_path / "ca"), *extra]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ)
    try:
        yield Listener(process)
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def _event(event_type: str = "transaction.posted") -> tuple[str, bytes]:
    ce_id = f"evt-{secrets.token_hex(4)}"
    body = orjson.dumps({"specversion": "1.0", "id": ce_id, "source": "ledger", "type": event_type,
                         "tenantid": "dev-tenant", "datacontenttype": "application/json", "data": {"n": 1}})
    return ce_id, body


def _signed(body: bytes, webhook_id: str, *secret_list: str, when: datetime | None = None) -> dict[str, str]:
    """Standard Webhooks headers, one signature per secret (a rotation overlap sends two)."""
    when = when or datetime.now(UTC)
    signatures = " ".join(Webhook(s).sign(webhook_id, when, body.decode()) for s in secret_list)
    return {"webhook-id": webhook_id, "webhook-timestamp": str(int(when.timestamp())),
            "webhook-signature": signatures, "content-type": "application/cloudevents+json"}


def test_https_receiver_verifies_each_request_and_prints_its_verdict(tmp_path) -> None:
    """Good, wrong-secret, dual-signed, stale, tampered and unsigned requests over real HTTPS."""
    with listening(tmp_path) as listener:
        assert listener.url.startswith("https://127.0.0.1:")
        assert Path(listener.ca_path).is_file()
        cases = []
        with httpx.Client(verify=listener.ca_path, timeout=10) as client:  # one keep-alive connection
            for name, secret_list, when, tamper, expected in [
                ("good", (SECRET,), None, False, 200),
                ("wrong secret", (OTHER_SECRET,), None, False, 401),
                ("rotation overlap", (OTHER_SECRET, SECRET), None, False, 200),
                ("stale", (SECRET,), datetime.now(UTC) - timedelta(minutes=10), False, 401),
                ("tampered body", (SECRET,), None, True, 401),
            ]:
                ce_id, body = _event()
                webhook_id = f"msg_{secrets.token_hex(6)}"
                headers = _signed(body, webhook_id, *secret_list, when=when)
                sent = body.replace(b'"n":1', b'"n":2') if tamper else body
                response = client.post(listener.url + "hooks/orders", content=sent, headers=headers)
                assert response.status_code == expected, name
                cases.append((name, ce_id, webhook_id, expected))
            unsigned = client.post(listener.url, content=b"hello")
            assert unsigned.status_code == 401
        for name, ce_id, webhook_id, expected in cases:
            line = listener.next_line()
            assert f"transaction.posted  id={ce_id}  webhook-id={webhook_id}" in line, (name, line)
            assert ("signature ok" in line) == (expected == 200), (name, line)
            assert line.endswith(f"-> {expected}"), (name, line)
        assert "signature BAD (Missing required headers)" in listener.next_line()


def test_untrusting_client_is_refused_and_the_ca_is_kept_across_starts(tmp_path) -> None:
    """The certificate chains to the local CA only; a restart reuses that CA (the hub's setting stays valid)."""
    with listening(tmp_path) as first:
        ca_bytes = Path(first.ca_path).read_bytes()
        ce_id, body = _event()
        with pytest.raises(httpx.ConnectError):
            httpx.post(first.url, content=body, headers=_signed(body, "msg_x", SECRET), timeout=10)
        assert "TLS handshake failed" in first.next_line()
    printed = subprocess.run([sys.executable, "-m", "hub.cli", "listen", "--print-ca", "--ca-dir",
                              str(tmp_path / "ca")], capture_output=True, text=True, timeout=60)
    assert printed.returncode == 0 and printed.stdout.strip() == first.ca_path
    assert oct((tmp_path / "ca" / "ca.key").stat().st_mode & 0o777) == "0o600"
    with listening(tmp_path) as second:
        assert Path(second.ca_path).read_bytes() == ca_bytes
        response = httpx.post(second.url, content=body, headers=_signed(body, "msg_y", SECRET),
                              verify=second.ca_path, timeout=10)
        assert response.status_code == 200


def test_plain_http_on_loopback(tmp_path) -> None:
    """--http serves plain HTTP on loopback, with the same verdicts; the hub's secret form (plain base64) works."""
    hub_form = base64.b64encode(secrets.token_bytes(32)).decode()
    with listening(tmp_path, "--http", "--show-body", secret=hub_form) as listener:
        assert listener.url.startswith("http://127.0.0.1:")
        ce_id, body = _event("account.created")
        assert httpx.post(listener.url, content=body, headers=_signed(body, "msg_h", hub_form)).status_code == 200
        line = listener.next_line()
        assert f"account.created  id={ce_id}  webhook-id=msg_h  signature ok  -> 200" in line
        assert ce_id in listener.next_line(), "the body is printed under --show-body"


@pytest.mark.parametrize("args, message", [
    (["--secret", "whsec_!!!not-base64"], "not a Standard Webhooks secret"),
    (["--secret", SECRET, "--http", "--host", "0.0.0.0"], "loopback only"),
    ([], "--secret is required"),
])
def test_listen_refuses_a_bad_start(tmp_path, args, message) -> None:
    result = subprocess.run([sys.executable, "-m", "hub.cli", "listen", "--port", "0", "--ca-dir",
                             str(tmp_path / "ca"), *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert message in result.stderr


def test_the_hubs_webhook_sink_reaches_the_listener(tmp_path, override_settings) -> None:
    """The README path: with loopback allowed, the SSRF check passes, and ping's probe, sent by the webhook
    sink the delivery engine uses, trusts the listener's CA and is verified by it."""
    import uuid

    from hub.config import get_settings
    from hub.providers.webhook.provider import probe_delivery, run_probe
    from hub.egress import EndpointBlocked, check_webhook_url

    with listening(tmp_path) as listener:
        url = listener.url + "hooks"
        override_settings(egress_allow_cidrs="")
        with pytest.raises(EndpointBlocked):
            check_webhook_url(url)  # refused by default: loopback is a private range
        override_settings(egress_allow_cidrs="127.0.0.0/8", webhook_ca_bundle=listener.ca_path)
        probe = probe_delivery(tenant_id="t1", subscription_id=uuid.uuid4(), endpoint=url, secrets=(SECRET,),
                               timeout_seconds=10)
        result = run_probe(probe, get_settings())
        assert (result.ok, result.status_code) == (True, 200)
        assert f"id={probe.delivery_id}  webhook-id={probe.delivery_id}  signature ok  -> 200" in listener.next_line()
