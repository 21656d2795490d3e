"""The basic.ack frames of a settle: one ``multiple`` ack below the lowest outstanding tag, single ones above."""

from hypothesis import given
from hypothesis import strategies as st

from hub.consumer.stream import ack_frames


def settled_by(frames: list[tuple[int, bool]], delivered: set[int]) -> set[int]:
    """What a channel holding DELIVERED unsettled tags settles on FRAMES (RabbitMQ's rule for ``multiple``)."""
    settled: set[int] = set()
    for tag, multiple in frames:
        settled |= {t for t in delivered if t <= tag} if multiple else {tag}
    return settled


def test_a_contiguous_batch_is_one_frame() -> None:
    assert ack_frames({1, 2, 3, 4}, 5) == [(4, True)]
    assert ack_frames({1, 2, 3}, None) == [(3, True)]


def test_a_gap_keeps_the_tags_above_it_single() -> None:
    assert ack_frames({1, 2, 4, 6}, 3) == [(2, True), (4, False), (6, False)]
    assert ack_frames({4}, 3) == [(4, False)]
    assert ack_frames(set(), 1) == []


@given(st.sets(st.integers(1, 60)), st.data())
def test_exactly_the_acked_tags_are_settled(delivered: set[int], data: st.DataObject) -> None:
    acked = data.draw(st.sets(st.sampled_from(sorted(delivered)))) if delivered else set()
    frames = ack_frames(acked, min(delivered - acked, default=None))
    assert settled_by(frames, delivered) == acked
    assert len(frames) <= len(acked)
