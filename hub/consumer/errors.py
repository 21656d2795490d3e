"""The consumer service's domain errors, with the seed's statuses and wording (E4)."""

from __future__ import annotations

from hub.errors import HubError, NotFound

BROKER_CANCELLED = ("Internal Server Error: The broker cancelled this stream's consumer. "
                    "Reconnect to resume consuming.")


class QueueNotFound(NotFound):
    code, default_detail = "queue_not_found", "the queue does not exist"


class ConsumerCancelled(HubError):
    """The broker took the stream's consumer (or its channel) away; the queue is unaffected."""

    status, code, default_detail = 500, "consumer_cancelled", BROKER_CANCELLED


class BrokerUnavailable(HubError):
    status, code, default_detail = 503, "broker_unavailable", "the message broker is unavailable; retry later"
