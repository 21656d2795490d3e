"""The deliver worker's loop exception handler: which contexts are quieted, and that the rest still
reach the loop's default handler (logged at ERROR)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from workers.deliver.loop_errors import handle_loop_exception, is_closed_connection_noise

CLOSED = RuntimeError("unable to perform operation on <TCPTransport closed=True reading=False 0x1>; "
                      "the handler is closed")


@pytest.mark.parametrize("context", [
    {"message": "Fatal error on SSL protocol", "exception": CLOSED},
    {"message": "Fatal error on transport TCPTransport", "exception": CLOSED},
    {"message": "Fatal error on SSL protocol", "exception": ConnectionResetError(104, "reset by peer")},
    {"message": "Fatal error on transport", "exception": BrokenPipeError()},
])
def test_transport_errors_of_a_gone_connection_are_quieted(context):
    assert is_closed_connection_noise(context)


@pytest.mark.parametrize("context", [
    {"message": "Fatal error on SSL protocol", "exception": RuntimeError("something else")},
    {"message": "Fatal error on SSL protocol", "exception": ValueError("the handler is closed")},
    {"message": "Fatal error on SSL protocol"},
    {"message": "Task exception was never retrieved", "exception": CLOSED},
    {"message": "Exception in callback", "exception": ConnectionResetError()},
    {},
])
def test_every_other_loop_error_is_not(context):
    assert not is_closed_connection_noise(context)


def test_the_handler_logs_noise_at_debug_and_the_rest_at_error(caplog):
    loop = asyncio.new_event_loop()
    try:
        with caplog.at_level(logging.DEBUG):
            handle_loop_exception(loop, {"message": "Fatal error on SSL protocol", "exception": CLOSED})
            handle_loop_exception(loop, {"message": "Exception in callback", "exception": KeyError("x")})
    finally:
        loop.close()
    levels = [(record.name, record.levelno) for record in caplog.records]
    assert levels == [("hub.deliver.loop", logging.DEBUG), ("asyncio", logging.ERROR)]
