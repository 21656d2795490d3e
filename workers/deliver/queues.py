"""A batch's send queues (N98): one per destination, each taking its subscriptions in turn."""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import zip_longest

from hub.sinks.base import PreparedDelivery
from workers.deliver.prepare import destination_key


def destination_queues(deliveries: list[PreparedDelivery], at: dict[int, float]
                       ) -> dict[tuple[str, uuid.UUID | None], deque[int]]:
    """The batch's send queues: one per destination (a paced subscription's deliveries, ``at``, one of their
    own), each taking its subscriptions in turn (N98), so a lane with one job shares a destination with
    another lane's hundreds without waiting behind them."""
    lanes: dict[tuple[str, uuid.UUID | None], dict[uuid.UUID, list[int]]] = {}
    for index, delivery in enumerate(deliveries):
        key = destination_key(delivery.sink_kind, delivery.endpoint)
        queue = lanes.setdefault((key, delivery.subscription_id if index in at else None), {})
        queue.setdefault(delivery.subscription_id, []).append(index)
    return {key: deque(by_lane.popitem()[1]) if len(by_lane) == 1 else deque(in_turn(by_lane.values()))
            for key, by_lane in lanes.items()}


def in_turn(lanes: Iterable[list[int]]) -> Iterator[int]:
    """The lanes' items one lane after another, round and round: each lane's first, then each one's second."""
    for round_ in zip_longest(*lanes):
        yield from (index for index in round_ if index is not None)
