from enum import StrEnum


class OrderingRequestOnDeadLetter(StrEnum):
    BLOCK = "block"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
