"""The deliver worker's event-loop exception handler: transport errors of connections that already
failed are logged at DEBUG; every other unexpected loop error is logged at ERROR as before.

When a receiver resets a TLS connection, uvloop may still try to write on the closed socket and report
"Fatal error on SSL protocol" with a RuntimeError "... the handler is closed" through the loop's
exception handler. The delivery has already been recorded as a failed attempt by then, so the ERROR
line (one per connection, many under resets) says nothing an operator can act on.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger("hub.deliver.loop")

FATAL_TRANSPORT = "Fatal error on"  # how asyncio and uvloop begin a transport's or SSL protocol's fatal error
CLOSED_HANDLE = "the handler is closed"  # uvloop's RuntimeError for an operation on a closed transport


def is_closed_connection_noise(context: dict[str, Any]) -> bool:
    """Whether a loop exception CONTEXT is a transport's fatal error on a connection already gone:
    a write on a closed transport, or the peer's reset or abort."""
    if not str(context.get("message", "")).startswith(FATAL_TRANSPORT):
        return False
    exc = context.get("exception")
    if isinstance(exc, ConnectionError):
        return True
    return isinstance(exc, RuntimeError) and str(exc).endswith(CLOSED_HANDLE)


def handle_loop_exception(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The loop's exception handler: quiet for :func:`is_closed_connection_noise`, the default otherwise."""
    if is_closed_connection_noise(context):
        log.debug("transport error on a closed connection", extra={"fields": {
            "message": context.get("message"), "error": repr(context.get("exception"))}})
        return
    loop.default_exception_handler(context)


def install(loop: asyncio.AbstractEventLoop) -> None:
    """Make :func:`handle_loop_exception` LOOP's exception handler."""
    loop.set_exception_handler(handle_loop_exception)
