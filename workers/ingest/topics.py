"""The topics ingestion reads: every ``<prefix>*`` topic except the dead-letter topic (N17)."""

from __future__ import annotations

import re

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
