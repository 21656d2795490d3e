"""The hand-written layer over the generated client ``streaming_hub_client`` (N73, N96).

``Hub(base_url, token)`` and ``AsyncHub``: ``hub.subscriptions.create(...)``, ``.get``, ``.list``, ``.ping``,
``.delete``; ``hub.deliveries.log(id)`` and ``.blocked_keys(id)`` iterate every page. Each call returns its
success model or raises :class:`HubProblem` with the answer's problem+json.

``connect`` gives the generated ``AuthenticatedClient`` a transport that puts an ``X-Idempotency`` key on
every mutation and honours ``Retry-After`` on 429 and 503, and a response hook that raises
:class:`HubProblem` for every error answer. :class:`WebhookReceiver` verifies a delivery's signature with a
subscription's signing secrets.
"""

from __future__ import annotations

from standardwebhooks import WebhookVerificationError

from streaming_hub.aio import AsyncDeliveries, AsyncHub, AsyncSubscriptions
from streaming_hub.problems import HubProblem
from streaming_hub.receiver import WebhookReceiver
from streaming_hub.resources import Deliveries, Hub, Subscriptions
from streaming_hub.session import connect
from streaming_hub.transport import AsyncHubTransport, HubTransport, new_key

__all__ = ["AsyncDeliveries", "AsyncHub", "AsyncHubTransport", "AsyncSubscriptions", "Deliveries", "Hub", "HubProblem",
           "HubTransport", "Subscriptions", "WebhookReceiver", "WebhookVerificationError", "connect", "new_key"]
