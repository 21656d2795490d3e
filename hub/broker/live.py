"""A live WebSocket subscriber (E9): optional replay from history (``since``), then live frames.

The subscriber registers with the feed before it reads history, so every event stored after the
history read is also in its buffer: the replay and the live frames overlap, never leave a gap, and
a frame whose id the replay already sent is dropped. A subscriber whose buffer fills (it reads too
slowly) gets no more frames and is closed with :data:`FELL_BEHIND` once its socket takes the close
frame (within ``broker_ws_close_wait_seconds``, else the connection is dropped); nobody waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import orjson
from fastapi import WebSocket, WebSocketDisconnect
from sqlmodel import Session

from hub.auth.credentials import read_credential
from hub.broker.access import DATA, READ, BrokerCaller, broker_caller
from hub.broker.feed import Subscriber, live_feed
from hub.broker.grammar import Topic, Violation, instant_param
from hub.broker.history import replay_page
from hub.broker.inputs import topic_of
from hub.config import get_settings
from hub.db import get_engine
from hub.broker.errors import InvalidBrokerInput
from hub.errors import HubError

UNAUTHORIZED, FORBIDDEN, INVALID, FELL_BEHIND = 4401, 4403, 4422, 4008
FELL_BEHIND_REASON = "subscriber fell behind: its buffer is full; reconnect with since"


def close_code(error: HubError) -> int:
    """The close code of a refused subscription: 44xx after the HTTP status it would have had."""
    return {401: UNAUTHORIZED, 403: FORBIDDEN, 422: INVALID}.get(error.status, 1011)


def admit(websocket: WebSocket, domain: str) -> tuple[BrokerCaller, Topic, int | None]:
    """The caller, topic and ``since`` of a subscription request; raises the HubError that refuses it."""
    credential = read_credential(websocket.headers.get("authorization"),
                                 query_token=websocket.query_params.get("token"))
    who = broker_caller(credential.principal, domain)
    topic = topic_of(websocket.query_params.get("topic", ""), location="query/topic")
    who.require(topic.main, DATA, READ)
    errors: list[Violation] = []
    since = instant_param(websocket.query_params.get("since"), "since", errors)
    if errors:
        raise InvalidBrokerInput(errors=errors)
    return who, topic, since


async def refuse(websocket: WebSocket, error: HubError) -> None:
    await websocket.close(code=close_code(error), reason=f"{error.code}: {error.detail}"[:120])


def _replay(tenant_id: str, topic: Topic, since: int, after: tuple[int, int] | None) -> list:
    with Session(get_engine()) as session:
        return replay_page(session, tenant_id=tenant_id, topic=topic, since=since, after=after,
                           now_ms=time.time_ns() // 1_000_000)


async def _send_replay(websocket: WebSocket, tenant_id: str, topic: Topic, since: int) -> set[str]:
    sent: set[str] = set()
    after: tuple[int, int] | None = None
    while page := await asyncio.to_thread(_replay, tenant_id, topic, since, after):
        for ts, seq, item in page:
            await websocket.send_text(orjson.dumps(item).decode())
            sent.add(item["id"])
            after = (ts, seq)
    return sent


async def _pump(websocket: WebSocket, subscriber: Subscriber, replayed: set[str]) -> None:
    while True:
        event_id, frame = await subscriber.frames.get()
        if event_id not in replayed:
            await websocket.send_text(frame)


async def _until_disconnect(websocket: WebSocket) -> None:
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            await websocket.receive_text()  # the client sends nothing we use: this notices it leaving


async def serve(websocket: WebSocket, tenant_id: str, topic: Topic, since: int | None) -> None:
    """Stream the subtree's events to WEBSOCKET until it leaves or falls behind."""
    subscriber = Subscriber(tenant_id, topic.text, get_settings().broker_ws_buffer_events,
                            asyncio.get_running_loop())
    feed = live_feed()
    await asyncio.to_thread(feed.subscribe, subscriber)
    tasks: list[asyncio.Task] = []
    try:
        overrun = asyncio.create_task(subscriber.overrun.wait())
        leaving = asyncio.create_task(_until_disconnect(websocket))
        tasks = [overrun, leaving]

        async def stream() -> None:
            replayed = await _send_replay(websocket, tenant_id, topic, since) if since is not None else set()
            await _pump(websocket, subscriber, replayed)

        tasks.append(asyncio.create_task(stream()))
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        if overrun.done():
            for task in tasks:
                task.cancel()  # no more frames: the close goes out as soon as the socket takes it
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(code=FELL_BEHIND, reason=FELL_BEHIND_REASON),
                                       get_settings().broker_ws_close_wait_seconds)
    finally:
        for task in tasks:
            task.cancel()
        feed.unsubscribe(subscriber)


async def subscribe_socket(websocket: WebSocket, domain: str) -> None:
    """The whole life of one ``/event/ws`` connection."""
    await websocket.accept()
    try:
        who, topic, since = await asyncio.to_thread(admit, websocket, domain)
    except HubError as error:
        await refuse(websocket, error)
        return
    await serve(websocket, who.tenant_id, topic, since)
