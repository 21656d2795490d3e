from enum import StrEnum


class OrderingOnDeadLetter(StrEnum):
    BLOCK = "block"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
