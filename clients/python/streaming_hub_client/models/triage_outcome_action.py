from enum import StrEnum


class TriageOutcomeAction(StrEnum):
    DISCARD = "DISCARD"
    LEAVE = "LEAVE"
    REPLAY = "REPLAY"

    def __str__(self) -> str:
        return str(self.value)
