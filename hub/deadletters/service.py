"""Triage in one request: a :class:`~hub.consumer.triage.TriageSession` opened, used and closed.

The stream's tags name messages within one session; a request names them by their key
(:func:`hub.consumer.triage.message_key`). ``browse`` reads the head of the dead-letter queue and
settles nothing (closing the session puts every message back). ``triage`` browses until each named
message is seen, acts on it with the session's own ``act`` (so REPLAY, DISCARD and LEAVE have the
stream's semantics and outcomes, ``ORIGIN_QUEUE_DELETED`` and ``REPLAY_FAILED`` included), and
reports a message it did not find within the window as ``UNSPECIFIED``, as the stream reports a tag
it does not hold.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from hub.consumer.topology import ConsumerRabbit
from hub.consumer.triage import Action, ActionResult, DeadLetter, Outcome, TriageSession

IDLE_SECONDS = 0.5  # a browse ends once the queue has sent nothing for this long
MAX_LIMIT, WINDOW = 100, 500  # a page of the head; how deep ``triage`` looks for the named messages
NOT_FOUND = ("not in the dead-letter queue's first {window} messages: already settled by another session, "
             "or further down")


@dataclass(frozen=True, slots=True)
class Outcomes:
    """Each named message's outcome, in the order of the request."""

    results: list[tuple[str, Action, ActionResult]]


async def _next(session: TriageSession) -> DeadLetter | ActionResult | None:
    try:
        async with asyncio.timeout(IDLE_SECONDS):
            return await session.outbox.get()
    except TimeoutError:
        return None


async def browse(*, broker: ConsumerRabbit, limit: int) -> list[DeadLetter]:
    """Up to LIMIT messages from the head of the dead-letter queue, left in it."""
    found: list[DeadLetter] = []
    async with TriageSession(broker, prefetch=limit) as session:
        while len(found) < limit:
            item = await _next(session)
            if item is None:
                break
            if isinstance(item, DeadLetter):
                found.append(item)
    return found


async def triage(*, broker: ConsumerRabbit, actions: list[tuple[str, Action]]) -> Outcomes:
    """Apply each (key, action); one outcome per entry (a repeated key acts once, on its first entry)."""
    wanted = dict(reversed(actions))  # the first entry of a key wins
    named: dict[int, str] = {}
    results: dict[str, ActionResult] = {}
    async with TriageSession(broker, prefetch=WINDOW) as session:
        while len(results) < len(wanted):
            item = await _next(session)
            if item is None:
                break
            if isinstance(item, DeadLetter) and item.key in wanted and item.key not in named.values():
                named[item.tag] = item.key
                await session.act(item.tag, wanted[item.key])
            elif isinstance(item, ActionResult) and item.tag in named:
                results[named[item.tag]] = item
    missing = ActionResult(0, Outcome.UNSPECIFIED, NOT_FOUND.format(window=WINDOW))
    return Outcomes([(key, action, results.get(key, missing)) for key, action in actions])
