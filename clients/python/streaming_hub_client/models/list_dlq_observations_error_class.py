from enum import StrEnum


class ListDlqObservationsErrorClass(StrEnum):
    AUTH = "auth"
    BROKER_OVERLOADED = "broker_overloaded"
    BROKER_UNAVAILABLE = "broker_unavailable"
    CONTEXT_CANCELED = "context_canceled"
    NETWORK_TIMEOUT = "network_timeout"
    SERIALIZATION = "serialization"
    TOPIC_NOT_FOUND = "topic_not_found"
    UNKNOWN = "unknown"
    VALIDATION = "validation"

    def __str__(self) -> str:
        return str(self.value)
