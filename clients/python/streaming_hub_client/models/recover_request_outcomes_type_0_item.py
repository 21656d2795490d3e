from enum import StrEnum


class RecoverRequestOutcomesType0Item(StrEnum):
    DEAD_LETTERED = "dead_lettered"
    DISABLED = "disabled"
    FAILED = "failed"

    def __str__(self) -> str:
        return str(self.value)
