from enum import StrEnum


class ReadinessResponseState(StrEnum):
    DEGRADED = "degraded"
    DOWN = "down"
    HEALTHY = "healthy"

    def __str__(self) -> str:
        return str(self.value)
