"""The topics ingestion reads: every ``<prefix>*`` topic except the dead-letter topic (N17), and the ones
the hub itself produces to, made before ingestion subscribes (N99)."""

from __future__ import annotations

import re

from hub.backbone.outbound import topic_for
from hub.broker.projection import BROKER_SOURCE
from hub.config import Settings
from hub.lifecycle.event_types import hub_topic
from hub.publisher.service import SOURCE as PUBLISHER_SOURCE

_REGEX_SPECIAL = re.compile(r"([.^$*+?()\[\]{}|\\])")


def _escape(text: str) -> str:
    return _REGEX_SPECIAL.sub(r"\\\1", text)


def _anything_but(word: str) -> str:
    """A regex alternation for every non-empty string except ``word`` itself.

    librdkafka's regex engine has no negative lookahead, so "not exactly ``dlq``" is spelled out:
    a string that leaves ``word`` at some character, a proper prefix of it, or ``word`` and more.
    """
    alternatives = [f"{_escape(word[:i])}[^{_escape(word[i])}].*" for i in range(len(word))]
    alternatives += [_escape(word[:i]) for i in range(1, len(word))]
    alternatives.append(f"{_escape(word)}.+")
    return "|".join(alternatives)


def ingest_pattern(prefix: str, dlq_topic: str) -> str:
    """The subscription regex: ``^<escaped prefix>.*`` without the dead-letter topic."""
    if not dlq_topic.startswith(prefix) or dlq_topic == prefix:
        return f"^{_escape(prefix)}.*"
    return f"^{_escape(prefix)}({_anything_but(dlq_topic[len(prefix):])})$"


def hub_topics(settings: Settings) -> list[str]:
    """The topics ingestion must hold before it subscribes: the dead-letter topic, and every topic the hub's
    own surfaces produce to (lifecycle events, seed 000's publisher, seed 003's broker).

    A topic made after the subscription is only found at the consumer's next metadata refresh (up to
    5 s), and seed 003's publish waits for the stored event: its first publishes on a fresh stack
    stalled for seconds (issue 53)."""
    return [settings.dlq_topic, hub_topic(settings), topic_for(PUBLISHER_SOURCE, settings),
            topic_for(BROKER_SOURCE, settings)]
