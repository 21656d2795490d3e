from enum import StrEnum


class TriageOutcomeOutcome(StrEnum):
    DISCARDED = "DISCARDED"
    LEFT = "LEFT"
    ORIGIN_QUEUE_DELETED = "ORIGIN_QUEUE_DELETED"
    REPLAYED = "REPLAYED"
    REPLAY_FAILED = "REPLAY_FAILED"
    UNSPECIFIED = "UNSPECIFIED"

    def __str__(self) -> str:
        return str(self.value)
