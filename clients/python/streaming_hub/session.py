"""``connect``: the generated client, configured with the hand-written layer, for sync and async calls."""

from __future__ import annotations

from typing import Any

import httpx

from streaming_hub.problems import araise_for_problem, raise_for_problem
from streaming_hub.transport import AsyncHubTransport, HubTransport
from streaming_hub_client import AuthenticatedClient


def connect(base_url: str, token: str, *, timeout: float = 30.0, retries: int = 3, max_wait: float = 60.0,
            **httpx_args: Any) -> AuthenticatedClient:
    """A client of the hub at BASE_URL with the bearer TOKEN, for the generated operations' ``sync``,
    ``sync_detailed``, ``asyncio`` and ``asyncio_detailed`` functions.

    Every mutation carries an ``X-Idempotency`` key (pass ``x_idempotency=new_key()`` where the operation
    asks for one, or ``""`` to let the transport choose); 429 and 503 are retried after ``Retry-After``
    (RETRIES times, waits up to MAX_WAIT seconds); any other error answer raises ``HubProblem``. A
    ``transport`` in HTTPX_ARGS serves the sync calls; the async calls get the same layer over httpx's own."""
    transport = HubTransport(httpx_args.pop("transport", None), retries=retries, max_wait=max_wait)
    hooks = httpx_args.pop("event_hooks", {})
    sync_hooks = {**hooks, "response": [*hooks.get("response", []), raise_for_problem]}
    client = AuthenticatedClient(base_url=base_url, token=token, timeout=httpx.Timeout(timeout),
                                 raise_on_unexpected_status=True,
                                 httpx_args={"transport": transport, "event_hooks": sync_hooks, **httpx_args})
    # The generated client would hand the sync transport and hook to httpx.AsyncClient, which cannot use them.
    return client.set_async_httpx_client(httpx.AsyncClient(
        base_url=base_url, headers={"Authorization": f"Bearer {token}"}, timeout=httpx.Timeout(timeout),
        transport=AsyncHubTransport(retries=retries, max_wait=max_wait),
        event_hooks={"response": [araise_for_problem]}, **httpx_args))
