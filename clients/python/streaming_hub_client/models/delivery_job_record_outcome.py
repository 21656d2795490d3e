from enum import StrEnum


class DeliveryJobRecordOutcome(StrEnum):
    DEAD_LETTERED = "dead_lettered"
    DELIVERED = "delivered"
    DISABLED = "disabled"
    FAILED = "failed"

    def __str__(self) -> str:
        return str(self.value)
