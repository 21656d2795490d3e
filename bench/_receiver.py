"""What bench/deliver.py stands on: an nginx HTTPS receiver on loopback, the wrk ceiling, the naive
baseline, and the body the hub sends.

Not a bench of its own (``make bench`` skips ``bench/_*.py``). Run as a script it is the baseline
client (``python bench/_receiver.py baseline URL CA SECONDS``), so the baseline's RSS is its own
process's, as each ``hub deliver``'s is.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

SECRET = base64.b64encode(b"bench-signing-secret-32-bytes!!!").decode()  # the hub's form: base64 of 32 bytes
_NGINX_CONF = """daemon off;
worker_processes {workers};
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    log_format receipt '$msec $http_webhook_id';
    access_log {dir}/access.log receipt buffer=256k flush=200ms;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    keepalive_requests 1000000;
    keepalive_timeout 120s;
    server {{
        listen 127.0.0.1:{port} ssl;
        ssl_certificate {dir}/server.pem;
        ssl_certificate_key {dir}/server.key;
        location / {{ return 200; }}
    }}
}}
"""


def ensure_tools() -> None:
    """nginx and wrk from Debian's packages, installed by the project's script when missing."""
    subprocess.run(["bash", str(ROOT / "deploy/local/tools.sh"), "nginx", "wrk"], check=True)


def event_body() -> bytes:
    """A structured-mode CloudEvent as the hub sends it: the ingest bench's first event (~320 bytes of data)."""
    from bench._ingest_setup import build_records

    record = build_records(1, ["bench-tenant"])[0]
    envelope = {name[3:]: raw.decode() for name, raw in record.headers if name.startswith("ce_")}
    envelope["datacontenttype"] = "application/json"
    envelope["data"] = orjson.loads(record.value)
    return orjson.dumps(envelope)


def signed_headers(body: bytes, webhook_id: str) -> dict[str, str]:
    """Standard Webhooks headers for BODY, signed now with the bench secret."""
    from standardwebhooks import Webhook

    now = datetime.now(UTC)
    return {"content-type": "application/cloudevents+json", "webhook-id": webhook_id,
            "webhook-timestamp": str(int(now.timestamp())),
            "webhook-signature": Webhook(SECRET).sign(webhook_id, now, body.decode())}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def vm_hwm_mb(pid: int) -> float | None:
    """Peak resident set (VmHWM) of a process in MB, or None when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


class Nginx:
    """nginx on a free loopback port with a trustme certificate; answers 200 at once, logs receipts."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self.dir = Path(tempfile.mkdtemp(prefix="bench-nginx-"))
        self.port = free_port()
        self.url = f"https://127.0.0.1:{self.port}/"
        self.ca_path = self.dir / "ca.pem"
        self.log_path = self.dir / "access.log"
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Nginx:
        import trustme

        ca = trustme.CA()
        leaf = ca.issue_cert("127.0.0.1", "localhost")
        ca.cert_pem.write_to_path(str(self.ca_path))
        leaf.private_key_pem.write_to_path(str(self.dir / "server.key"))
        (self.dir / "server.pem").write_bytes(b"".join(blob.bytes() for blob in leaf.cert_chain_pems))
        self.dir.chmod(0o755)  # the workers run as nobody when nginx starts as root
        conf = self.dir / "nginx.conf"
        conf.write_text(_NGINX_CONF.format(workers=self.workers, dir=self.dir, port=self.port))
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen([binary, "-p", str(self.dir), "-e", str(self.dir / "error.log"),
                                         "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._wait_ready()
        return self

    def _wait_ready(self, timeout: float = 15.0) -> None:
        context = ssl.create_default_context(cafile=str(self.ca_path))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.process.stderr.read().decode(errors='replace')[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as raw:
                    with context.wrap_socket(raw, server_hostname="127.0.0.1"):
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("nginx did not accept TLS connections in time")

    def __exit__(self, *_exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: the log buffer is flushed
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def worker_rss_mb(self) -> float | None:
        """Peak RSS of nginx's worker process(es), the largest one."""
        if self.process is None:
            return None
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        pids = [int(pid) for pid in children.read_text().split()] if children.exists() else []
        sizes = [size for size in (vm_hwm_mb(pid) for pid in pids) if size is not None]
        return max(sizes) if sizes else None

    def log_offset(self) -> int:
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    def receipts(self, offset: int) -> Receipts:
        """The requests logged after OFFSET (read as they come: call ``update``)."""
        return Receipts(self.log_path, offset)


class Receipts:
    """webhook-id -> first receipt time (epoch ms), read incrementally from nginx's access log."""

    def __init__(self, path: Path, offset: int) -> None:
        self.path, self.offset = path, offset
        self.seen: dict[str, float] = {}
        self.update()

    def update(self) -> int:
        """Read the complete lines logged since the last call; return how many ids were seen so far."""
        if not self.path.exists():
            return 0
        with self.path.open("rb") as log:
            log.seek(self.offset)
            chunk = log.read()
        end = chunk.rfind(b"\n") + 1  # a line still being written is read next time
        self.offset += end
        for line in chunk[:end].decode(errors="replace").splitlines():
            parts = line.split(" ", 1)
            if len(parts) == 2 and parts[1] != "-":
                self.seen.setdefault(parts[1], float(parts[0]) * 1000)
        return len(self.seen)


@dataclass
class Figures:
    """One run of a client against the receiver: requests/s, latency p50/p99 (ms), peak RSS (MB)."""

    rate: float
    p50: float | None
    p99: float | None
    rss_mb: float | None = None


_WRK_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _wrk_ms(text: str, pct: str) -> float | None:
    found = re.search(rf"^\s*{pct}%\s+([\d.]+)(us|ms|s)\s*$", text, re.MULTILINE)
    return float(found.group(1)) * _WRK_UNITS[found.group(2)] if found else None


def wrk_ceiling(nginx: Nginx, body: bytes, *, seconds: int, connections: int, threads: int) -> Figures:
    """wrk POSTing BODY (with signed-looking headers) straight at nginx: the receiver's ceiling."""
    script = nginx.dir / "post.lua"
    headers = signed_headers(body, "msg_ceiling")
    lines = ['wrk.method = "POST"', f"wrk.body = {json.dumps(body.decode())}"]
    lines += [f'wrk.headers["{name}"] = {json.dumps(value)}' for name, value in headers.items()]
    script.write_text("\n".join(lines) + "\n")
    argv = ["wrk", "--latency", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "-s", str(script),
            nginx.url + "ceiling"]
    output = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 60, check=True).stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    if rate is None:
        raise RuntimeError(f"wrk printed no rate:\n{output}")
    return Figures(float(rate.group(1)), _wrk_ms(output, "50"), _wrk_ms(output, "99"), nginx.worker_rss_mb())


def baseline(url: str, ca_path: str, body: bytes, seconds: float) -> Figures:
    """The naive client: one synchronous request at a time, keep-alive, each signed anew."""
    import httpx

    latencies: list[float] = []
    with httpx.Client(verify=ca_path, timeout=10) as client:
        deadline = time.perf_counter() + seconds
        n = 0
        while time.perf_counter() < deadline:
            n += 1
            started = time.perf_counter()
            headers = signed_headers(body, f"msg_baseline_{n}")
            response = client.post(url, content=body, headers=headers)
            latencies.append((time.perf_counter() - started) * 1000)
            if response.status_code != 200:
                raise RuntimeError(f"the receiver answered {response.status_code}")
    latencies.sort()
    return Figures(len(latencies) / seconds, statistics.median(latencies),
                   latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], vm_hwm_mb(os.getpid()))


def baseline_process(nginx: Nginx, body: bytes, seconds: float) -> Figures:
    """Run :func:`baseline` in its own process (its RSS is then its own); returns its figures."""
    argv = [sys.executable, str(Path(__file__).resolve()), "baseline", nginx.url + "baseline", str(nginx.ca_path),
            str(seconds)]
    result = subprocess.run(argv, input=body, capture_output=True, timeout=seconds + 120, check=True)
    return Figures(**json.loads(result.stdout))


if __name__ == "__main__" and sys.argv[1:2] == ["baseline"]:
    figures = baseline(sys.argv[2], sys.argv[3], sys.stdin.buffer.read(), float(sys.argv[4]))
    print(json.dumps(figures.__dict__))
