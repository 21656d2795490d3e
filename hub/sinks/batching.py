"""Splitting a sink's deliveries into the batch calls a destination accepts."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")


def group_by(items: Sequence[T], key: Callable[[T], Hashable]) -> list[list[T]]:
    """Items with equal keys together, groups in first-seen order, items in input order."""
    groups: dict[Hashable, list[T]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return list(groups.values())


def size_bounded_chunks(items: Sequence[T], sizes: Sequence[int], max_count: int, max_bytes: int) -> Iterator[list[T]]:
    """Consecutive chunks of at most ``max_count`` items whose sizes add up to at most ``max_bytes``.

    An item larger than ``max_bytes`` on its own still gets a chunk of its own (the caller has
    refused those already, or lets the destination refuse it).
    """
    chunk: list[T] = []
    total = 0
    for item, size in zip(items, sizes, strict=True):
        if chunk and (len(chunk) == max_count or total + size > max_bytes):
            yield chunk
            chunk, total = [], 0
        chunk.append(item)
        total += size
    if chunk:
        yield chunk
