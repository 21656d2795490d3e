"""A subscription's ordering option (N77) as a typed value, and how an event's key is read (N78).

``subscriptions.ordering`` stores ``{"key": <attribute name>, "on_dead_letter": "block" | "skip"}`` (NULL:
unordered). :func:`ordering_policy` turns that into an :class:`OrderingPolicy`, which ingest (which key
an event has) and the deliver engine (whether a dead-letter blocks the key) read.

An event's key (:meth:`OrderingPolicy.key_of`): for ``partitionkey`` (the default) the CloudEvents
Partitioning extension, which the decoder also fills from the Kafka record key when the envelope has
none; for any other name, the event's top-level context attribute of that name (an extension attribute
such as ``subject`` or ``accountid``; ``data`` is never looked into). A string is the key as it is; an
integer or a boolean is the key in its CloudEvents canonical string form (``42``, ``true``); a missing
attribute, ``null``, an empty string or any other value means the event has no key, and it gets an
ordinary unordered job.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import orjson

DEFAULT_KEY_ATTRIBUTE = "partitionkey"


class OnDeadLetter(StrEnum):
    """What an ordered key does when its head dead-letters."""

    block = "block"  # the key is parked; its later events wait until an operator retries or skips the head
    skip = "skip"  # the event stays dead-lettered and the key moves on


@dataclass(frozen=True, slots=True)
class OrderingPolicy:
    """An ordered subscription's key attribute and dead-letter policy."""

    key: str = DEFAULT_KEY_ATTRIBUTE
    on_dead_letter: OnDeadLetter = OnDeadLetter.skip

    @property
    def blocks(self) -> bool:
        """Whether a dead-lettered head parks its key."""
        return self.on_dead_letter is OnDeadLetter.block

    def key_of(self, partition_key: str | None, attributes_json: str) -> str | None:
        """The event's key value, or None when it has none (module docstring). ``attributes_json`` is
        parsed only for a key attribute other than ``partitionkey``."""
        if self.key == DEFAULT_KEY_ATTRIBUTE:
            return key_text(partition_key)
        return key_text(orjson.loads(attributes_json).get(self.key))


def key_text(value: Any) -> str | None:
    """An attribute's value as a key: text as is, an integer or boolean in canonical form, else None."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value:
        return value
    return None


def ordering_policy(stored: Mapping[str, Any] | None) -> OrderingPolicy | None:
    """The policy of a stored ``ordering`` value; None: the subscription is unordered."""
    if stored is None:
        return None
    key = stored.get("key") or DEFAULT_KEY_ATTRIBUTE
    try:
        on_dead_letter = OnDeadLetter(stored.get("on_dead_letter") or OnDeadLetter.skip)
    except ValueError:  # written by a newer hub: parking keeps order, the operator decides
        on_dead_letter = OnDeadLetter.block
    return OrderingPolicy(key=str(key), on_dead_letter=on_dead_letter)
