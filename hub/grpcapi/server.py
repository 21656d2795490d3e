"""``hub grpc``: one asyncio gRPC server for seed 000's services and the standard health service (E10).

The health service answers ``SERVING`` for the server as a whole (``""``) and for each service
registered here, and ``NOT_SERVING`` once the server is shutting down, so a balancer drains it
before it stops. The port is ``HUB_GRPC_HOST``:``HUB_GRPC_PORT`` (``127.0.0.1:50051``).
"""

from __future__ import annotations

import asyncio
import logging
import signal

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from hub.config import get_settings
from hub.grpcapi import consumer, publisher
from hub.grpcapi.guard import InputGuardInterceptor

log = logging.getLogger("hub.grpc")
SHUTDOWN_GRACE_SECONDS = 5.0
HEALTH_SERVICE = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name


def build_server(address: str) -> tuple[grpc.aio.Server, health.aio.HealthServicer, list[str], int]:
    """A server with every service and the health service, bound to ADDRESS (port 0: any free one)."""
    server = grpc.aio.server(interceptors=[InputGuardInterceptor()])  # the one input guard (N93)
    services = [publisher.add_to_server(server), consumer.add_to_server(server)]
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    port = server.add_insecure_port(address)
    if port == 0:
        raise OSError(f"the gRPC server cannot listen on {address}")
    return server, health_servicer, [*services, HEALTH_SERVICE], port


async def _set_all(health_servicer: health.aio.HealthServicer, services: list[str], status: int) -> None:
    for name in ["", *services]:
        await health_servicer.set(name, status)


async def serve(address: str | None = None) -> None:
    """Serve until SIGTERM or SIGINT, then drain: NOT_SERVING first, in-flight calls get the grace."""
    settings = get_settings()
    address = address or f"{settings.grpc_host}:{settings.grpc_port}"
    server, health_servicer, services, port = build_server(address)
    await server.start()
    await _set_all(health_servicer, services, health_pb2.HealthCheckResponse.SERVING)
    log.info("gRPC server listening", extra={"fields": {"address": address, "port": port}})
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    await stopping.wait()
    await _set_all(health_servicer, services, health_pb2.HealthCheckResponse.NOT_SERVING)
    await server.stop(SHUTDOWN_GRACE_SECONDS)


def run() -> None:
    """The ``hub grpc`` command's body."""
    asyncio.run(serve())
