from enum import StrEnum


class ResumedKeyAction(StrEnum):
    RETRY = "retry"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
