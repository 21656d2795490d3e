"""Webhook client micro-benchmark: signed deliveries/s and client CPU µs per delivery, by HTTP client.

The receiver is a minimal HTTPS server (uvicorn with httptools and uvloop, a bare ASGI app answering
200 at once, certificate from a throwaway trustme CA for 127.0.0.1) in its own process. Each client
sends ``--requests`` signed structured CloudEvents (~400 bytes) with ``--concurrency`` in flight over
pooled keep-alive connections:

- **WebhookSink (production path)**: the hub's ``WebhookSink`` itself: the compiled client ``pyreqwest``
  (Rust reqwest) pinned to the address the egress guard checked (hub.egress.pinned, N79), Standard
  Webhooks signing, bounded answer read, classification.
- **aiohttp (former path)**: the sink's request path before N79: the egress-checked pooled aiohttp
  session (hub.egress.aio), the same signing, headers and bounded read.
- **httpx**: an ``httpx.AsyncClient`` with the same TLS context, pool size, signing and headers.
- **pyreqwest (bare)**: the compiled client alone, same CA, pool size, signing and headers, the answer
  read up to 1 KiB, no guard: what the sink's own Python around the client costs is the gap to it.
- **baseline**: one synchronous signed ``httpx.Client`` request at a time.

Figures: deliveries/s (wall clock) and the client process's CPU µs per delivery (``process_time``,
which excludes the receiver's process). Medians of ``--repeat`` runs. The machine is shared and noisy;
compare figures from one run.

Run: ``python bench/webhook_client.py`` (``--help``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import orjson  # noqa: E402
import trustme  # noqa: E402

RECEIVER = '''
import sys, uvicorn
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    more = True
    while more:
        message = await receive()
        more = message.get("more_body", False)
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), ssl_certfile=sys.argv[2], ssl_keyfile=sys.argv[3],
            log_level="warning", access_log=False, http="httptools", loop="uvloop")
'''


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def body() -> bytes:
    return orjson.dumps({"specversion": "1.0", "id": str(uuid.uuid4()), "source": "ledger",
                         "type": "transaction.posted", "tenantid": "bench", "datacontenttype": "application/json",
                         "data": {"account": "acc-123456", "amount": "125.50", "currency": "BRL",
                                  "memo": "x" * 200}})


def deliveries(url: str, count: int):  # noqa: ANN201
    from hub.secrets import mint_signing_secret
    from hub.sinks.base import PreparedDelivery
    from hub.sinks.vocabulary import SinkKind

    secret = mint_signing_secret()
    return [PreparedDelivery(delivery_id=str(uuid.uuid4()), job_id=None, tenant_id="bench",
                             subscription_id=uuid.uuid4(), sink_kind=SinkKind.webhook, endpoint=url, body=body(),
                             attributes={}, signing_secrets=(secret,)) for _ in range(count)]


async def bounded(concurrency: int, jobs) -> list:  # noqa: ANN001
    gate = asyncio.Semaphore(concurrency)

    async def one(job):  # noqa: ANN001, ANN202
        async with gate:
            return await job()

    return await asyncio.gather(*(one(job) for job in jobs))


async def run_sink(url: str, count: int, concurrency: int) -> None:
    from hub.config import get_settings
    from hub.providers.webhook.sink import WebhookSink

    sink = WebhookSink(settings=get_settings())
    items = deliveries(url, count)
    try:
        results = await bounded(concurrency, [lambda d=d: sink.deliver(d) for d in items])
    finally:
        await sink.close()
    assert all(r.ok for r in results), results[0]


async def run_aiohttp(url: str, count: int, concurrency: int, ca_file: str) -> None:
    from yarl import URL

    from hub.egress.aio import check_literal, checked_session
    from hub.providers.webhook.sink import SESSION_HEADERS, try_headers

    target = URL(url)
    session = checked_session(total_limit=concurrency, per_host_limit=concurrency, keepalive_seconds=4.0,
                              extra_ca_bundle=ca_file, headers=SESSION_HEADERS)
    items = deliveries(url, count)

    async def send(d) -> int:  # noqa: ANN001
        check_literal(target.raw_host or "", target.port or 443)
        async with session.post(target, data=d.body, headers=try_headers(d, int(time.time())),
                                allow_redirects=False) as response:
            await response.content.read(65_537)
            return response.status

    try:
        codes = await bounded(concurrency, [lambda d=d: send(d) for d in items])
    finally:
        await session.close()
    assert all(code == 200 for code in codes)


async def run_httpx(url: str, count: int, concurrency: int, ca_file: str) -> None:
    import ssl

    from hub.providers.webhook.sink import signed_headers

    context = ssl.create_default_context(cafile=ca_file)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    items = deliveries(url, count)
    async with httpx.AsyncClient(verify=context, limits=limits, trust_env=False, follow_redirects=False) as client:
        async def send(d) -> int:  # noqa: ANN001
            response = await client.post(url, content=d.body, headers=signed_headers(d, int(time.time())))
            return response.status_code
        codes = await bounded(concurrency, [lambda d=d: send(d) for d in items])
    assert all(code == 200 for code in codes)


async def run_pyreqwest(url: str, count: int, concurrency: int, ca_file: str) -> None:
    from pyreqwest.client import ClientBuilder

    from hub.providers.webhook.sink import signed_headers

    client = (ClientBuilder().add_root_certificate_pem(Path(ca_file).read_bytes()).max_connections(concurrency)
              .follow_redirects(False).no_proxy().build())
    items = deliveries(url, count)

    async def send(d) -> int:  # noqa: ANN001
        request = client.post(url).body_bytes(d.body).headers(signed_headers(d, int(time.time()))).build_streamed()
        async with request as response:
            await response.body_reader.read(1024)
            return response.status

    async with client:
        codes = await bounded(concurrency, [lambda d=d: send(d) for d in items])
    assert all(code == 200 for code in codes)


def run_baseline(url: str, count: int, ca_file: str) -> None:
    import ssl

    from hub.providers.webhook.sink import signed_headers

    context = ssl.create_default_context(cafile=ca_file)
    with httpx.Client(verify=context, trust_env=False) as client:
        for d in deliveries(url, count):
            assert client.post(url, content=d.body, headers=signed_headers(d, int(time.time()))).status_code == 200


def measure(fn, count: int) -> tuple[float, float]:  # noqa: ANN001
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return count / wall, cpu / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import uvloop

    folder = Path(tempfile.mkdtemp(prefix="hub-bench-webhook-"))
    ca = trustme.CA()
    leaf = ca.issue_cert("127.0.0.1")
    leaf.cert_chain_pems[0].write_to_path(str(folder / "cert.pem"))
    leaf.private_key_pem.write_to_path(str(folder / "key.pem"))
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    os.environ.update({"HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_WEBHOOK_CA_BUNDLE": str(folder / "ca.pem"),
                       "HUB_DELIVER_CONCURRENCY": str(args.concurrency),
                       "HUB_DELIVER_PER_HOST_CONCURRENCY": str(args.concurrency)})
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", RECEIVER, str(port), str(folder / "cert.pem"),
                               str(folder / "key.pem")])
    url = f"https://127.0.0.1:{port}/hooks"
    try:
        for _ in range(100):
            try:
                httpx.post(url, verify=str(folder / "ca.pem"), content=b"{}")
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        n, c = args.requests, args.concurrency
        ca_file = str(folder / "ca.pem")
        figures: dict[str, list[tuple[float, float]]] = {
            "WebhookSink (pyreqwest, pinned)": [], "aiohttp (former path)": [], "httpx AsyncClient": [],
            "pyreqwest (bare)": [], "baseline: sync, one at a time": []}
        for _ in range(args.repeat):
            figures["WebhookSink (pyreqwest, pinned)"].append(measure(lambda: uvloop.run(run_sink(url, n, c)), n))
            figures["aiohttp (former path)"].append(
                measure(lambda: uvloop.run(run_aiohttp(url, n, c, ca_file)), n))
            figures["httpx AsyncClient"].append(
                measure(lambda: uvloop.run(run_httpx(url, n, c, str(folder / "ca.pem"))), n))
            figures["pyreqwest (bare)"].append(
                measure(lambda: uvloop.run(run_pyreqwest(url, n, c, ca_file)), n))
            figures["baseline: sync, one at a time"].append(
                measure(lambda: run_baseline(url, max(200, n // 10), str(folder / "ca.pem")), max(200, n // 10)))
    finally:
        server.terminate()
        server.wait(timeout=10)
    base = statistics.median(rate for rate, _ in figures["baseline: sync, one at a time"])
    print(f"{n} signed deliveries, {c} in flight, median of {args.repeat} runs; receiver: uvicorn+httptools, 1 proc")
    print(f"| client | deliveries/s | client CPU µs/delivery | × baseline |\n|---|---:|---:|---:|")
    for name, runs in figures.items():
        rate = statistics.median(r for r, _ in runs)
        cpu = statistics.median(u for _, u in runs)
        print(f"| {name} | {rate:,.0f} | {cpu:,.0f} | {rate / base:.1f} |")


if __name__ == "__main__":
    main()
