"""The one place that turns domain errors into gRPC statuses (what hub.problems is for REST).

Each servicer method is wrapped by :func:`grpc_method`: a :class:`~hub.errors.HubError` aborts the
call with the status its REST status stands for (E4: the seed's codes), anything unexpected is
logged and answers ``INTERNAL`` with no detail, like a REST 500.
"""

from __future__ import annotations

import logging
import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc

from hub.errors import HubError
from hub.publisher.admission import Overloaded

log = logging.getLogger("hub.grpc")
Method = TypeVar("Method", bound=Callable[..., Awaitable[Any]])

_BY_HTTP_STATUS = {
    400: grpc.StatusCode.INVALID_ARGUMENT, 401: grpc.StatusCode.UNAUTHENTICATED,
    403: grpc.StatusCode.PERMISSION_DENIED, 404: grpc.StatusCode.NOT_FOUND,
    409: grpc.StatusCode.FAILED_PRECONDITION, 422: grpc.StatusCode.INVALID_ARGUMENT,
    429: grpc.StatusCode.RESOURCE_EXHAUSTED, 503: grpc.StatusCode.UNAVAILABLE,
    504: grpc.StatusCode.DEADLINE_EXCEEDED,
}
INTERNAL_MESSAGE = "Internal Server Error"


def status_of(error: HubError) -> grpc.StatusCode:
    """The gRPC status of a domain error (an overloaded publisher is RESOURCE_EXHAUSTED, as the seed says)."""
    if isinstance(error, Overloaded):
        return grpc.StatusCode.RESOURCE_EXHAUSTED
    return _BY_HTTP_STATUS.get(error.status, grpc.StatusCode.INTERNAL)


def trailing_metadata(error: HubError) -> tuple[tuple[str, str], ...]:
    """The error's stable code, and its ``Retry-After`` when it has one, as trailing metadata."""
    pairs = [("hub-error-code", error.code)]
    if "Retry-After" in error.headers:
        pairs.append(("retry-after", error.headers["Retry-After"]))
    return tuple(pairs)


def grpc_method(method: Method) -> Method:
    """Wrap a unary servicer method: domain errors and crashes become the call's status."""

    @functools.wraps(method)
    async def call(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            return await method(self, request, context)
        except HubError as error:
            if status_of(error) is grpc.StatusCode.INTERNAL:
                log.exception("grpc %s failed", method.__name__)
                await context.abort(grpc.StatusCode.INTERNAL, INTERNAL_MESSAGE)
            context.set_trailing_metadata(trailing_metadata(error))
            await context.abort(status_of(error), error.detail)
        except grpc.aio.AbortError:
            raise
        except Exception:  # noqa: BLE001 (the cause is logged, never returned)
            log.exception("grpc %s failed", method.__name__)
            await context.abort(grpc.StatusCode.INTERNAL, INTERNAL_MESSAGE)

    return call  # type: ignore[return-value]


async def abort_with(context: grpc.aio.ServicerContext, error: BaseException, name: str) -> None:
    """End the call with ERROR's status: a domain error's own, anything else INTERNAL without detail."""
    if isinstance(error, HubError) and status_of(error) is not grpc.StatusCode.INTERNAL:
        context.set_trailing_metadata(trailing_metadata(error))
        await context.abort(status_of(error), error.detail)
    if isinstance(error, HubError) and error.status == 500 and error.code != "internal_error":
        await context.abort(grpc.StatusCode.INTERNAL, error.detail)  # a worded 500, e.g. the seed's cancel
    log.error("grpc %s failed", name, exc_info=error)
    await context.abort(grpc.StatusCode.INTERNAL, INTERNAL_MESSAGE)


def grpc_stream(method: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a response-streaming servicer method (an async generator) like :func:`grpc_method`."""

    @functools.wraps(method)
    async def call(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            async for response in method(self, request, context):
                yield response
        except grpc.aio.AbortError:
            raise
        except Exception as error:  # noqa: BLE001 (abort_with logs what it does not return)
            await abort_with(context, error, method.__name__)

    return call
