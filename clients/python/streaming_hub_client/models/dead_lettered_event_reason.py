from enum import StrEnum


class DeadLetteredEventReason(StrEnum):
    DELIVERY_LIMIT = "DELIVERY_LIMIT"
    EXPIRED = "EXPIRED"
    MAXLEN = "MAXLEN"
    UNSPECIFIED = "UNSPECIFIED"

    def __str__(self) -> str:
        return str(self.value)
