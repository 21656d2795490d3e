"""Ingest's read-ahead, shared out by partition (N98): a flood on one partition never queues another
partition's records behind the whole flood.

librdkafka hands records over in one queue, in the order it fetched them: a 60,000-event flood fetched
ahead put another tenant's next event seconds behind it. :class:`ReadAhead` takes what librdkafka has
fetched into one queue per partition as soon as it is there, and makes batches from them in turns: each
partition with records waiting gives an equal part. What it holds is bounded: past ``limit`` records the
partitions holding the most are paused (librdkafka drops what it fetched for them and fetches again from
the next record on resume, so nothing is skipped) until their queue is down to ``resume_below``.

Records of one partition stay in their order, and a batch holds each partition's records in order, so the
offsets stored after a batch is written are still those of a prefix of each partition.
"""

from __future__ import annotations

from collections import deque

from confluent_kafka import Consumer, Message, TopicPartition

from workers.kafka_state import record_key

Key = tuple[str, int]


class ReadAhead:
    """Records fetched but not yet batched, by partition; ``consume`` is the consumer's, in turns."""

    def __init__(self, consumer: Consumer, *, limit: int, resume_below: int) -> None:
        self.consumer = consumer
        self.limit = max(1, limit)
        self.resume_below = max(1, min(resume_below, self.limit))
        self._queues: dict[Key, deque[Message]] = {}
        self._count = 0
        self.held: set[Key] = set()  # partitions paused because their queue is full
        self._pending_errors: list[Message] = []  # error events met by ``quiet``, handed over by ``consume``

    def __len__(self) -> int:
        return self._count

    def consume(self, *, num_messages: int, timeout: float) -> list[Message]:
        """Up to ``num_messages`` records, partitions in turns (and any error events): at once when records
        are waiting; else waits up to ``timeout`` for librdkafka, as ``Consumer.consume`` does."""
        errors, self._pending_errors = self._pending_errors, []
        if not self._count:
            self._add(self.consumer.consume(num_messages=num_messages, timeout=timeout), errors)
        self._fill(errors)
        taken = self._take(num_messages)
        self._release()
        return errors + taken

    def quiet(self, *, most: int, short: int) -> list[Message]:
        """Without waiting: up to ``most`` records of the partitions with at most ``short`` waiting, after
        taking in what librdkafka fetched meanwhile (a batch's top-up, N98: a quiet partition's record that
        came while the last batch was written goes with the next one, not the one after)."""
        errors: list[Message] = []  # an error event is for the next consume() to hand over
        self._fill(errors)
        taken: list[Message] = []
        for queue in self._queues.values():
            if queue and len(queue) <= short and len(taken) + len(queue) <= most:
                taken.extend(queue)
                queue.clear()
        self._count -= len(taken)
        self._pending_errors.extend(errors)
        self._release()
        return taken

    def records(self) -> list[Message]:
        """Every record held (to rewind to after a failed batch)."""
        return [record for queue in self._queues.values() for record in queue]

    def clear(self) -> list[Message]:
        """Forget every record held and every hold; returns the records (a rewind seeks their partitions
        back to the first of them)."""
        forgotten = self.records()
        self._queues.clear()
        self._count = 0
        self.held.clear()
        return forgotten

    def drop(self, gone: set[Key]) -> None:
        """Forget the records of partitions no longer assigned."""
        for key in gone:
            self._count -= len(self._queues.pop(key, ()))
        self.held -= gone

    def _fill(self, errors: list[Message]) -> None:
        """Take all librdkafka already holds, without waiting, up to ``limit``; then hold the fullest."""
        while self._count < self.limit:
            got = self.consumer.consume(num_messages=min(1000, self.limit - self._count), timeout=0)
            if not got:
                break
            self._add(got, errors)
        if self._count >= self.limit:
            self._hold()

    def _add(self, messages: list[Message], errors: list[Message]) -> None:
        for message in messages:
            if message.error() is not None:
                errors.append(message)
                continue
            self._queues.setdefault(record_key(message), deque()).append(message)
            self._count += 1

    def _take(self, wanted: int) -> list[Message]:
        """Up to ``wanted`` records, an equal part from each partition with records, the rest in turns."""
        taken: list[Message] = []
        queues = [queue for queue in self._queues.values() if queue]
        while queues and len(taken) < wanted:
            part = max(1, (wanted - len(taken)) // len(queues))
            for queue in queues:
                for _ in range(min(part, len(queue), wanted - len(taken))):
                    taken.append(queue.popleft())
            queues = [queue for queue in queues if queue]
        self._count -= len(taken)
        # Serve the partitions in a new order next time, so no partition is always first.
        if len(self._queues) > 1:
            first = next(iter(self._queues))
            self._queues[first] = self._queues.pop(first)
        return taken

    def _hold(self) -> None:
        """Pause the partitions holding more than an equal part of ``limit``."""
        busy = [key for key, queue in self._queues.items() if queue]
        fair = self.limit // max(1, len(busy))
        hold = [key for key in busy if key not in self.held and len(self._queues[key]) >= fair]
        if hold:
            self.consumer.pause([TopicPartition(*key) for key in hold])
            self.held.update(hold)

    def _release(self) -> None:
        """Resume the held partitions whose queue is down to ``resume_below``."""
        ready = [key for key in self.held if len(self._queues.get(key, ())) < self.resume_below]
        if ready:
            self.consumer.resume([TopicPartition(*key) for key in ready])
            self.held.difference_update(ready)
