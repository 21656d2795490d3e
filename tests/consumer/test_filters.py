"""Filter groups become topic bindings that select exactly what the seed's filter types say (N37).

The bindings are checked against RabbitMQ's topic matching rules, written here as a plain matcher
(``*`` one word, ``#`` zero or more), and against a plain path evaluator of the three filter types.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hub.consumer.filters import (
    FilterGroup, FilterType, InvalidFilter, ResourceFilter, bindings, groups_from_json, routing_key,
)


def topic_matches(binding: str, key: str) -> bool:
    """RabbitMQ's topic rule: words split on '.', '*' is exactly one word, '#' zero or more."""

    def match(pattern: list[str], words: list[str]) -> bool:
        if not pattern:
            return not words
        head, rest = pattern[0], pattern[1:]
        if head == "#":
            return any(match(rest, words[skip:]) for skip in range(len(words) + 1))
        return bool(words) and head in ("*", words[0]) and match(rest, words[1:])

    return match(binding.split("."), key.split("."))


def plain_match(group: FilterGroup, event_type: str, resource_id: str | None) -> bool:
    if group.event_type and group.event_type != event_type:
        return False
    if not group.filters:
        return True
    have = [part for part in (resource_id or "").split("/") if part]
    for resource_filter in group.filters:
        want = [part for part in resource_filter.resource_id.split("/") if part]
        if resource_filter.filter_type in (FilterType.eq, FilterType.unspecified) and have == want:
            return True
        if resource_filter.filter_type is FilterType.starts_with_lazy and len(have) == len(want) + 1 \
                and have[:len(want)] == want:
            return True
        if resource_filter.filter_type is FilterType.starts_with_greedy and len(have) > len(want) \
                and have[:len(want)] == want:
            return True
    return False


def selects(groups: list[FilterGroup], event_type: str, resource_id: str | None) -> bool:
    key = routing_key(event_type, resource_id)
    return any(topic_matches(binding, key) for binding in bindings(groups))


@pytest.mark.parametrize(("kind", "resource", "expected"), [
    ("eq", "/users/123", True), ("eq", "/users/123/x", False), ("eq", "/users", False),
    ("starts_with_lazy", "/users/123", True), ("starts_with_lazy", "/users/123/photos", False),
    ("starts_with_lazy", "/users", False), ("starts_with_greedy", "/users/123", True),
    ("starts_with_greedy", "/users/123/photos/9", True), ("starts_with_greedy", "/users", False),
    ("starts_with_greedy", "/usersx/1", False),
])
def test_each_filter_type_at_several_depths(kind, resource, expected):
    prefix = "/users/123" if kind == "eq" else "/users/"
    group = FilterGroup("myapp.user.created", (ResourceFilter(FilterType(kind), prefix),))
    assert selects([group], "myapp.user.created", resource) is expected
    assert selects([group], "myapp.user.deleted", resource) is False


def test_no_filters_selects_every_event_of_the_type_and_no_groups_every_event():
    assert selects([FilterGroup("a.b")], "a.b", "/x/y/z")
    assert selects([FilterGroup("a.b")], "a.b", None)
    assert not selects([FilterGroup("a.b")], "a.c", None)
    assert selects([], "anything.at.all", "/deep/er")


def test_dots_stars_and_hashes_inside_names_stay_literal():
    group = FilterGroup("x", (ResourceFilter(FilterType.eq, "/a.b/*"),))
    assert selects([group], "x", "/a.b/*")
    assert not selects([group], "x", "/a.b/c")
    assert not selects([group], "x", "/a/b/*")
    assert not selects([FilterGroup("a.*")], "a.b", None)


def test_json_groups_accept_the_seed_spellings_and_refuse_the_rest():
    groups = groups_from_json([{"event_type": "t", "filters": [
        {"filter_type": "starts_with_greedy", "resource_id": "/p/"}, {"filter_type": "FILTER_TYPE_EQ",
                                                                      "resource_id": "/q"}, {"resource_id": "/r"}]}])
    assert [f.filter_type for f in groups[0].filters] == [FilterType.starts_with_greedy, FilterType.eq,
                                                          FilterType.unspecified]
    for bad in ({"event_type": "t"}, [{"event_type": 3}], [{"event_type": "t", "filters": [{"filter_type": "like"}]}]):
        with pytest.raises(InvalidFilter):
            groups_from_json(bad)


@pytest.mark.parametrize("group", [{"event_type": "t\x00", "filters": []},
                                   {"event_type": "t", "filters": [{"filter_type": "eq", "resource_id": "/r\x00"}]}])
def test_a_group_holding_u0000_is_refused_before_anything_is_stored(group):
    """PostgreSQL's JSON cannot hold U+0000: a group naming it is invalid input, never a failed write (a 500)."""
    with pytest.raises(InvalidFilter, match="U\\+0000"):
        groups_from_json([group])


def test_a_resource_too_deep_for_a_key_is_cut_and_still_reaches_a_shallow_greedy_prefix():
    deep = "/top/" + "/".join(f"segment{i:03d}" for i in range(60))
    key = routing_key("t", deep)
    assert len(key.encode()) <= 255 and key.endswith(".%")
    assert selects([FilterGroup("t", (ResourceFilter(FilterType.starts_with_greedy, "/top"),))], "t", deep)
    with pytest.raises(InvalidFilter):
        groups_from_json([{"event_type": "t", "filters": [{"filter_type": "eq", "resource_id": deep}]}])


segment = st.text(alphabet="ab.*#%", min_size=1, max_size=3)
path = st.lists(segment, max_size=4).map(lambda parts: "/" + "/".join(parts))
kinds = st.sampled_from(list(FilterType))


@given(event_type=st.sampled_from(["t.a", "t.b"]), resource=st.one_of(st.none(), path),
       filters=st.lists(st.tuples(kinds, path), max_size=3), group_type=st.sampled_from(["t.a", ""]))
def test_bindings_select_exactly_what_the_plain_evaluator_selects(event_type, resource, filters, group_type):
    group = FilterGroup(group_type, tuple(ResourceFilter(kind, prefix) for kind, prefix in filters))
    assert selects([group], event_type, resource) == plain_match(group, event_type, resource)
