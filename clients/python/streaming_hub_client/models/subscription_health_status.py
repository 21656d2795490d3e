from enum import StrEnum


class SubscriptionHealthStatus(StrEnum):
    DEGRADED = "Degraded"
    DOWN = "Down"
    HEALTHY = "Healthy"

    def __str__(self) -> str:
        return str(self.value)
