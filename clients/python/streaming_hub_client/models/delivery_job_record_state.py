from enum import StrEnum


class DeliveryJobRecordState(StrEnum):
    DEAD_LETTERED = "dead_lettered"
    DELIVERED = "delivered"
    DISABLED = "disabled"
    PENDING = "pending"
    RETRYING = "retrying"
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
