"""``python -m chaos.motoserver``: moto's server (same arguments) for the chaos run, with the SQS
queue counters made constant-time.

moto computes a queue's ``Approximate*`` counters by walking every message, and it reads them on
every message sent or received (``Queue.attributes``, for the deduplication setting and the
retention period), so each send and each receive costs the queue's length: thousands of messages
make moto, not the hub, the bottleneck and the runs' timeouts its artefact. Nothing in the run reads
the counters, and AWS's own are approximate, so here they are the queue's length and zero.
"""

from __future__ import annotations

from moto.server import main
from moto.sqs.models import Queue

Queue.approximate_number_of_messages = property(lambda queue: len(queue._messages))  # type: ignore[assignment]
Queue.approximate_number_of_messages_not_visible = property(lambda _queue: 0)  # type: ignore[assignment]
Queue.approximate_number_of_messages_delayed = property(lambda _queue: 0)  # type: ignore[assignment]

if __name__ == "__main__":
    main()
