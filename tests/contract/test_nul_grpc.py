"""Issue 55, N93, the gRPC side: every method of ``hub grpc`` (seed 000's two services and the health
service) whose request has a string field, sent a request whose string holds a NUL, or a string that is not UTF-8, answers
``INVALID_ARGUMENT`` with ``hub-error-code: validation_error`` — whatever its credential (none here).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor, MethodDescriptor

from hub.grpcapi.server import build_server
from hub.grpcapi.stubs import consumer_stubs, publisher_stubs
from grpc_health.v1 import health_pb2

NUL_TEXT = "nul\x00here"


def _methods() -> list[MethodDescriptor]:
    files = [publisher_stubs()[0].DESCRIPTOR, consumer_stubs()[0].DESCRIPTOR, health_pb2.DESCRIPTOR]
    methods = [method for file in files for service in file.services_by_name.values() for method in service.methods]
    # A request with no string field carries no text (ManageDeadLetteredEvents: tags and actions only).
    return [method for method in methods if _string_path(method.input_type)]


def _string_path(descriptor: Descriptor, depth: int = 0) -> list[FieldDescriptor] | None:
    """The fields leading to the first string field of DESCRIPTOR (a nested one if need be)."""
    fields = [field for field in descriptor.fields if not (field.message_type and field.message_type.GetOptions().map_entry)]
    for field in fields:
        if field.type == FieldDescriptor.TYPE_STRING:
            return [field]
    for field in fields:
        if field.type == FieldDescriptor.TYPE_MESSAGE and depth < 3:
            rest = _string_path(field.message_type, depth + 1)
            if rest:
                return [field, *rest]
    return None


def _set(message: Any, path: list[FieldDescriptor], value: str) -> None:
    field, rest = path[0], path[1:]
    repeated = field.is_repeated
    if not rest:
        getattr(message, field.name).append(value) if repeated else setattr(message, field.name, value)
        return
    child = getattr(message, field.name).add() if repeated else getattr(message, field.name)
    _set(child, rest, value)


def nul_request(method: MethodDescriptor) -> bytes:
    """METHOD's request with a NUL in its first string field, serialized."""
    message = message_factory.GetMessageClass(method.input_type)()
    path = _string_path(method.input_type)
    assert path, f"{method.full_name}: no string field to carry a NUL"
    _set(message, path, NUL_TEXT)
    return message.SerializeToString()


def not_utf8_request(method: MethodDescriptor) -> bytes:
    """A request whose first string field (at any depth) holds the byte 0xFF, written by hand (protobuf
    would not serialize it)."""
    path = _string_path(method.input_type)
    assert path
    payload = b"\xff"
    for field in reversed(path):
        payload = bytes([(field.number << 3) | 2, len(payload)]) + payload
    return payload


async def _call(channel: grpc.aio.Channel, method: MethodDescriptor, raw: bytes) -> grpc.aio.AioRpcError:
    name = f"/{method.containing_service.full_name}/{method.name}"
    identity = {"request_serializer": lambda b: b, "response_deserializer": lambda b: b}
    kind = ("stream" if method.client_streaming else "unary") + "_" + ("stream" if method.server_streaming else "unary")
    callable_ = getattr(channel, kind)(name, **identity)
    request = iter([raw]) if method.client_streaming else raw
    try:
        if method.server_streaming:
            async for _ in callable_(request, timeout=10):
                pass
        else:
            await callable_(request, timeout=10)
    except grpc.aio.AioRpcError as error:
        return error
    raise AssertionError(f"{name}: answered without an error")


async def _answers(kind: str) -> list[tuple[str, grpc.StatusCode, str | None]]:
    server, _, _, port = build_server("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            answers = []
            for method in _methods():
                raw = nul_request(method) if kind == "nul" else not_utf8_request(method)
                error = await _call(channel, method, raw)
                code = dict(error.trailing_metadata() or ()).get("hub-error-code")
                answers.append((method.full_name, error.code(), code))
            return answers
    finally:
        await server.stop(0)


@pytest.fixture(scope="module")
def answers() -> Iterator[dict[str, list[tuple[str, grpc.StatusCode, str | None]]]]:
    yield {kind: asyncio.run(_answers(kind)) for kind in ("nul", "not_utf8")}


@pytest.mark.parametrize("kind", ["nul", "not_utf8"])
def test_every_method_refuses_bad_text_with_invalid_argument(answers: Any, kind: str) -> None:
    wrong = [(name, code, error_code) for name, code, error_code in answers[kind]
             if (code, error_code) != (grpc.StatusCode.INVALID_ARGUMENT, "validation_error")]
    assert len(answers[kind]) >= 9
    assert not wrong, wrong
