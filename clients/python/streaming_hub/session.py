"""``connect``: the generated client, configured with the hand-written layer."""

from __future__ import annotations

from typing import Any

import httpx

from streaming_hub.problems import raise_for_problem
from streaming_hub.transport import HubTransport
from streaming_hub_client import AuthenticatedClient


def connect(base_url: str, token: str, *, timeout: float = 30.0, retries: int = 3, max_wait: float = 60.0,
            **httpx_args: Any) -> AuthenticatedClient:
    """A client of the hub at BASE_URL with the bearer TOKEN, for the generated operations' ``sync`` and
    ``sync_detailed`` functions (the layer is synchronous; the ``asyncio`` functions get a plain client).

    Every mutation carries an ``X-Idempotency`` key (pass ``x_idempotency=new_key()`` where the operation
    asks for one, or ``""`` to let the transport choose); 429 and 503 are retried after ``Retry-After``
    (RETRIES times, waits up to MAX_WAIT seconds); any other error answer raises ``HubProblem``."""
    transport = HubTransport(httpx_args.pop("transport", None), retries=retries, max_wait=max_wait)
    hooks = httpx_args.pop("event_hooks", {})
    hooks = {**hooks, "response": [*hooks.get("response", []), raise_for_problem]}
    return AuthenticatedClient(base_url=base_url, token=token, timeout=httpx.Timeout(timeout),
                               raise_on_unexpected_status=True,
                               httpx_args={"transport": transport, "event_hooks": hooks, **httpx_args})
