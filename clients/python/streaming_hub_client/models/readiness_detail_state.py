from enum import StrEnum


class ReadinessDetailState(StrEnum):
    DEGRADED = "degraded"
    DOWN = "down"
    HEALTHY = "healthy"

    def __str__(self) -> str:
        return str(self.value)
