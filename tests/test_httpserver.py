"""How ``hub api`` serves (N110): an answer's head leaves with its body, in one write and no later; the
served app's heap is frozen."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import threading
from types import SimpleNamespace

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from hub.httpserver import HeldHead, OneWriteProtocol, http_protocol


class Wire:
    """A transport recording each write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


class Loop:
    """call_soon, run by hand."""

    def __init__(self) -> None:
        self.soon: list = []

    def call_soon(self, callback) -> None:
        self.soon.append(callback)

    def turn(self) -> None:
        callbacks, self.soon = self.soon, []
        for callback in callbacks:
            callback()


def held() -> tuple[HeldHead, Wire, SimpleNamespace, Loop]:
    wire, cycle, loop = Wire(), SimpleNamespace(response_started=False), Loop()
    return HeldHead(wire, cycle, loop), wire, cycle, loop


def test_the_head_is_written_with_the_body() -> None:
    transport, wire, cycle, loop = held()
    cycle.response_started = True
    transport.write(b"HTTP/1.1 200 OK\r\n\r\n")
    assert wire.writes == []
    transport.write(b"body")
    loop.turn()
    assert wire.writes == [b"HTTP/1.1 200 OK\r\n\r\nbody"]


def test_a_head_without_a_body_leaves_on_the_next_turn() -> None:
    transport, wire, cycle, loop = held()
    cycle.response_started = True
    transport.write(b"HTTP/1.1 200 OK\r\n\r\n")
    loop.turn()
    assert wire.writes == [b"HTTP/1.1 200 OK\r\n\r\n"]
    transport.write(b"chunk")
    assert wire.writes == [b"HTTP/1.1 200 OK\r\n\r\n", b"chunk"]


def test_a_held_head_leaves_the_cycle_to_reference_counting() -> None:
    """The cycle refers to its transport and the transport to its cycle until the head: no garbage cycle."""
    import gc
    import weakref

    class Cycle:
        response_started = False

    cycle, wire, loop = Cycle(), Wire(), Loop()
    cycle.transport = HeldHead(wire, cycle, loop)
    gone = weakref.ref(cycle)
    cycle.response_started = True
    gc.disable()
    try:
        cycle.transport.write(b"head")
        transport = cycle.transport
        del cycle
        assert gone() is None
    finally:
        gc.enable()
    transport.write(b"body")
    assert wire.writes == [b"headbody"]


def test_a_continue_is_written_at_once_and_close_flushes() -> None:
    transport, wire, cycle, loop = held()
    transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    assert wire.writes == [b"HTTP/1.1 100 Continue\r\n\r\n"]
    cycle.response_started = True
    transport.write(b"head")
    transport.close()
    assert wire.writes[1:] == [b"head"] and wire.closed
    assert transport.is_closing()


async def _ok(request: Request) -> Response:
    return PlainTextResponse((await request.body()).upper())


async def _stream(_: Request) -> Response:
    async def chunks():
        await asyncio.sleep(0.3)
        yield b"late"
    return StreamingResponse(chunks())


def _serve(app: Starlette) -> tuple[uvicorn.Server, int, threading.Thread]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, http=http_protocol(),
                                           log_config=None, access_log=False, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        threading.Event().wait(0.02)
    return server, port, thread


def _segments(port: int, request: bytes, until: bytes, timeout: float = 3.0) -> list[bytes]:
    """The chunks the socket read until UNTIL arrived (kept-alive connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        got: list[bytes] = []
        while until not in b"".join(got):
            got.append(sock.recv(65536))
        return got


def test_uvicorn_serves_with_one_write_per_answer() -> None:
    assert http_protocol().endswith(":OneWriteProtocol") and OneWriteProtocol is not None
    app = Starlette(routes=[Route("/ok", _ok, methods=["POST"]), Route("/stream", _stream)])
    server, port, thread = _serve(app)
    try:
        answer = b"".join(_segments(port, b"POST /ok HTTP/1.1\r\nhost: x\r\ncontent-length: 3\r\n\r\nabc", b"ABC"))
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n") and answer.endswith(b"\r\n\r\nABC")
        # a stream's head is not held back for its first chunk
        with socket.create_connection(("127.0.0.1", port), timeout=3) as sock:
            sock.sendall(b"GET /stream HTTP/1.1\r\nhost: x\r\n\r\n")
            sock.settimeout(0.2)
            assert sock.recv(65536).startswith(b"HTTP/1.1 200 OK")
    finally:
        server.should_exit = True
        thread.join(5)


def test_hub_api_serves_an_app_built_before_its_heap_was_frozen() -> None:
    """``hub api``'s factory freezes the built app's heap (N110): full collections skip it."""
    script = (
        "import gc, json\n"
        "from hub.app import serve_app\n"
        "app = serve_app()\n"
        "print(json.dumps({'frozen': gc.get_freeze_count(), 'tracked': len(gc.get_objects()),\n"
        "                  'routes': len(app.routes)}))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    figures = json.loads(result.stdout)
    assert figures["routes"] > 20 and figures["frozen"] > 50_000
    assert figures["tracked"] < figures["frozen"] / 20
