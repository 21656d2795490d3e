from enum import StrEnum


class ListSubscriptionsVerificationState(StrEnum):
    ACTIVE = "active"
    DEGRADED = "degraded"
    PENDING_VERIFICATION = "pending_verification"

    def __str__(self) -> str:
        return str(self.value)
