"""The hand-written layer over the generated client ``streaming_hub_client`` (N73).

``connect`` gives the generated ``AuthenticatedClient`` a transport that puts an ``X-Idempotency`` key on
every mutation and honours ``Retry-After`` on 429 and 503, and a response hook that raises
:class:`HubProblem` for every error answer. :class:`WebhookReceiver` verifies a delivery's signature with a
subscription's signing secrets.
"""

from __future__ import annotations

from standardwebhooks import WebhookVerificationError

from streaming_hub.problems import HubProblem
from streaming_hub.receiver import WebhookReceiver
from streaming_hub.session import connect
from streaming_hub.transport import HubTransport, new_key

__all__ = ["HubProblem", "HubTransport", "WebhookReceiver", "WebhookVerificationError", "connect", "new_key"]
