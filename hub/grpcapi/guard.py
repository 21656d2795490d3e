"""The gRPC side of the one input guard (N93): a server interceptor that refuses, with
``INVALID_ARGUMENT`` and ``hub-error-code: validation_error``, any call whose metadata or request
message carries a NUL in a string (a key of a map included), or a string that is not UTF-8.

Protobuf refuses a proto3 string that is not UTF-8 while it parses the request, before any servicer
runs, and grpc would answer that ``INTERNAL``; the interceptor's deserializer turns it into
:class:`Undecodable`, which the guard refuses like a NUL. A streamed request is checked message by
message: a bad one raises :class:`~hub.inputguard.BadInput` where the servicer reads it, and the
servicer's own wrapper (hub.grpcapi.status) turns it into the same status.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import Message

from hub.grpcapi.status import trailing_metadata
from hub.inputguard import BadInput


_END = object()  # the end of a request stream


class Undecodable:
    """A request message protobuf could not parse (a string that is not UTF-8, or broken bytes)."""


def _deserializer(original: Callable[[bytes], Any] | None) -> Callable[[bytes], Any]:
    def deserialize(raw: bytes) -> Any:
        try:
            return original(raw) if original else raw
        except Exception:  # noqa: BLE001 (protobuf's DecodeError, or what a C parser raises instead)
            return Undecodable()

    return deserialize


def value_fault(value: Any, where: str) -> str | None:
    """The field path of the first string holding a NUL in VALUE (a message, a map, a list), else None."""
    if isinstance(value, str):
        return where if "\x00" in value else None
    if isinstance(value, Message):
        for field, item in value.ListFields():
            found = value_fault(item, f"{where}.{field.name}" if where else field.name)
            if found:
                return found
        return None
    if isinstance(value, (bytes, int, float, bool)):
        return None  # bytes fields carry binary data, not text
    if hasattr(value, "items"):
        for key, item in value.items():
            found = (where if isinstance(key, str) and "\x00" in key else None) or value_fault(item, f"{where}[{key!r}]")
            if found:
                return found
        return None
    return next((found for index, item in enumerate(value)
                 if (found := value_fault(item, f"{where}[{index}]"))), None)


def request_fault(request: Any) -> BadInput | None:
    """The error refusing REQUEST, or None when every string in it is NUL-free UTF-8."""
    if isinstance(request, Undecodable):
        return BadInput("the request holds a string that is not valid UTF-8")
    where = value_fault(request, "")
    return BadInput(f"{where} holds a NUL character", errors=[{"location": where, "message": "holds a NUL character"}]
                    ) if where else None


def metadata_fault(metadata: Any) -> BadInput | None:
    """The error refusing a call whose text metadata holds a NUL, else None (``-bin`` values are bytes)."""
    for key, value in metadata or ():
        if isinstance(value, str) and "\x00" in value:
            return BadInput(f"metadata {key} holds a NUL character")
    return None


async def refuse(context: grpc.aio.ServicerContext, error: BadInput) -> None:
    """End the call as hub.grpcapi.status ends a domain error: INVALID_ARGUMENT with its code."""
    context.set_trailing_metadata(trailing_metadata(error))
    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, error.detail)


async def _checked(first: Any, rest: AsyncIterator[Any]) -> AsyncIterator[Any]:
    """FIRST (already checked) then the REST of a request stream, each checked as it comes."""
    if first is not _END:
        yield first
    async for request in rest:
        error = request_fault(request)
        if error is not None:
            raise error
        yield request


async def _opened(requests: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
    """The request stream, its first message checked before the servicer runs (as a unary request is)."""
    rest = aiter(requests)
    first = await anext(rest, _END)
    error = request_fault(first) if first is not _END else None
    if error is not None:
        await refuse(context, error)
    return _checked(first, rest)


def _unary_request(behavior: Callable[..., Awaitable[Any]], streams: bool) -> Callable[..., Any]:
    if streams:
        async def unary_stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            error = request_fault(request)
            if error is not None:
                await refuse(context, error)
            async for response in behavior(request, context):
                yield response
        return unary_stream

    async def unary_unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
        error = request_fault(request)
        if error is not None:
            await refuse(context, error)
        return await behavior(request, context)
    return unary_unary


def _stream_request(behavior: Callable[..., Any], streams: bool) -> Callable[..., Any]:
    if streams:
        async def stream_stream(requests: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            async for response in behavior(await _opened(requests, context), context):
                yield response
        return stream_stream

    async def stream_unary(requests: Any, context: grpc.aio.ServicerContext) -> Any:
        return await behavior(await _opened(requests, context), context)
    return stream_unary


_FACTORIES = {
    "unary_unary": (grpc.unary_unary_rpc_method_handler, _unary_request, False),
    "unary_stream": (grpc.unary_stream_rpc_method_handler, _unary_request, True),
    "stream_unary": (grpc.stream_unary_rpc_method_handler, _stream_request, False),
    "stream_stream": (grpc.stream_stream_rpc_method_handler, _stream_request, True),
}


def guarded_handler(handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    """HANDLER with every request message checked before its servicer method sees it."""
    for kind, (factory, wrap, streams) in _FACTORIES.items():
        behavior = getattr(handler, kind)
        if behavior is not None:
            return factory(wrap(behavior, streams), request_deserializer=_deserializer(handler.request_deserializer),
                           response_serializer=handler.response_serializer)
    return handler


class InputGuardInterceptor(grpc.aio.ServerInterceptor):
    """Every method of the server behind the one guard, the health service's included."""

    async def intercept_service(self, continuation: Callable[..., Awaitable[Any]],
                                handler_call_details: grpc.HandlerCallDetails) -> Any:
        handler = await continuation(handler_call_details)
        if handler is None:
            return None
        error = metadata_fault(handler_call_details.invocation_metadata)
        if error is not None:
            return _refusing(handler, error)
        return guarded_handler(handler)


def _refusing(handler: grpc.RpcMethodHandler, error: BadInput) -> grpc.RpcMethodHandler:
    """HANDLER answering every call with ERROR's INVALID_ARGUMENT, whatever its request."""
    async def refuse_all(_: Any, context: grpc.aio.ServicerContext) -> None:
        await refuse(context, error)

    for kind, (factory, _wrap, _streams) in _FACTORIES.items():
        if getattr(handler, kind) is not None:
            return factory(refuse_all, request_deserializer=_deserializer(handler.request_deserializer),
                           response_serializer=handler.response_serializer)
    return handler
