from enum import StrEnum


class RecoveryState(StrEnum):
    COMPLETED = "completed"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
