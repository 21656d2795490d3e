"""Filter groups (seed 000) and the topic-exchange keys they become (docs/contract-notes.md N37).

A stored event is published to its tenant's topic exchange under a routing key of words: its event
type, then the segments of its resource id (``/uploads/a/b.pdf`` → ``uploads``, ``a``, ``b.pdf``),
each word escaped so that a ``.``, ``*`` or ``#`` inside a type or segment stays one literal word.
A filter group becomes bindings, so RabbitMQ does the routing and Python sends no per-queue copies:

- no filters: ``<type>.#`` (every event of the type);
- ``eq`` (and ``unspecified``): ``<type>.<segments>`` (that resource only);
- ``starts_with_lazy``: ``<type>.<segments>.*`` (one level below the prefix: shallow);
- ``starts_with_greedy``: ``<type>.<segments>.*.#`` (any depth below the prefix: deep).

An empty ``event_type`` selects every type (``*``); no filter groups at all selects every event.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

MAX_KEY_BYTES = 255  # AMQP short string: the longest routing or binding key
TRUNCATED = "%"  # a word no escaped word can equal: the key was cut to fit, deeper segments dropped
ANY_TYPE_WORD, ONE_WORD, ANY_WORDS = "*", "*", "#"


class FilterType(StrEnum):
    unspecified = "unspecified"
    eq = "eq"
    starts_with_lazy = "starts_with_lazy"
    starts_with_greedy = "starts_with_greedy"


FILTER_TYPE_NUMBERS = {0: FilterType.unspecified, 1: FilterType.eq, 2: FilterType.starts_with_lazy,
                       3: FilterType.starts_with_greedy}


class InvalidFilter(ValueError):
    """A filter group the hub cannot bind; the message names the field and the rule."""


@dataclass(frozen=True, slots=True)
class ResourceFilter:
    filter_type: FilterType
    resource_id: str


@dataclass(frozen=True, slots=True)
class FilterGroup:
    event_type: str
    filters: tuple[ResourceFilter, ...] = ()

    def as_json(self) -> dict:
        return {"event_type": self.event_type,
                "filters": [{"filter_type": f.filter_type.value, "resource_id": f.resource_id} for f in self.filters]}


def parse_filter_type(value: object) -> FilterType:
    """A filter type as JSON gives it (``eq``, ``FILTER_TYPE_EQ``, ``1``); InvalidFilter otherwise."""
    if isinstance(value, int) and not isinstance(value, bool) and value in FILTER_TYPE_NUMBERS:
        return FILTER_TYPE_NUMBERS[value]
    if value is None:
        return FilterType.unspecified
    if isinstance(value, str):
        name = value.strip().lower().removeprefix("filter_type_")
        if name in FilterType.__members__:
            return FilterType(name)
    raise InvalidFilter("filter_type must be one of eq, starts_with_lazy, starts_with_greedy, unspecified")


def groups_from_json(value: object, field: str = "filter_groups") -> tuple[FilterGroup, ...]:
    """Filter groups from their JSON form (a list of objects); InvalidFilter names what is wrong."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InvalidFilter(f"{field} must be a JSON array of filter groups")
    groups = []
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise InvalidFilter(f"{field}[{index}] must be an object")
        event_type, filters = item.get("event_type", ""), item.get("filters") or []
        if not isinstance(event_type, str) or not isinstance(filters, list):
            raise InvalidFilter(f"{field}[{index}]: event_type must be a string and filters an array")
        parsed = []
        for position, entry in enumerate(filters):
            resource_id = entry.get("resource_id", "") if isinstance(entry, dict) else None
            if not isinstance(resource_id, str):
                raise InvalidFilter(f"{field}[{index}].filters[{position}] must be an object with a string resource_id")
            parsed.append(ResourceFilter(parse_filter_type(entry.get("filter_type")), resource_id))
        groups.append(FilterGroup(event_type, tuple(parsed)))
    return check_groups(groups, field)


def check_groups(groups: Sequence[FilterGroup], field: str = "filter_groups") -> tuple[FilterGroup, ...]:
    """GROUPS, each of whose bindings fits an AMQP key and whose texts PostgreSQL can store (no U+0000, which
    the stored groups' JSON cannot hold); InvalidFilter otherwise."""
    for index, group in enumerate(groups):
        if "\x00" in group.event_type or any("\x00" in item.resource_id for item in group.filters):
            raise InvalidFilter(f"{field}[{index}]: event_type and resource_id may not contain U+0000")
        for key in group_bindings(group):
            if len(key.encode()) > MAX_KEY_BYTES:
                raise InvalidFilter(f"{field}[{index}]: an event type and resource id together must stay within "
                                    f"{MAX_KEY_BYTES - 10} bytes")
    return tuple(groups)


def word(text: str) -> str:
    """TEXT as one topic word: the characters a topic key treats specially are percent-escaped."""
    return text.replace("%", "%25").replace(".", "%2E").replace("*", "%2A").replace("#", "%23")


def segments(resource_id: str) -> list[str]:
    """The path segments of a resource id (``/a/b/`` → ``a``, ``b``), each as a word."""
    return [word(part) for part in resource_id.split("/") if part]


def group_bindings(group: FilterGroup) -> list[str]:
    """The binding keys of one filter group (one per filter; the type alone when it has none)."""
    head = word(group.event_type) if group.event_type else ANY_TYPE_WORD
    if not group.filters:
        return [f"{head}.{ANY_WORDS}"]
    keys = []
    for resource_filter in group.filters:
        words = [head, *segments(resource_filter.resource_id)]
        if resource_filter.filter_type is FilterType.starts_with_lazy:
            words.append(ONE_WORD)
        elif resource_filter.filter_type is FilterType.starts_with_greedy:
            words += [ONE_WORD, ANY_WORDS]
        keys.append(".".join(words))
    return keys


def bindings(groups: Iterable[FilterGroup]) -> set[str]:
    """Every binding key of GROUPS; no groups at all binds every event (``#``)."""
    keys = {key for group in groups for key in group_bindings(group)}
    return keys or {ANY_WORDS}


def routing_key(event_type: str, resource_id: str | None) -> str:
    """The routing key of a stored event; cut (and marked) when its resource is too deep to fit."""
    words = [word(event_type), *segments(resource_id or "")]
    key = ".".join(words)
    if len(key.encode()) <= MAX_KEY_BYTES:
        return key
    kept: list[str] = []
    size = len(TRUNCATED) + 1
    for item in words:
        size += len(item.encode()) + 1
        if size > MAX_KEY_BYTES:
            break
        kept.append(item)
    return ".".join([*kept, TRUNCATED])
