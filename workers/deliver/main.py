"""Delivery worker entry point."""

from __future__ import annotations

import sys


def run() -> None:
    """The push sinks (webhook, SQS, RabbitMQ, EventBridge) are not part of this build yet."""
    print("streaming-hub: this build has no delivery sinks yet; `hub deliver` has nothing to run",
          file=sys.stderr)
    raise SystemExit(2)
