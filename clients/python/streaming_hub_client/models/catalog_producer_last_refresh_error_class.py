from enum import StrEnum


class CatalogProducerLastRefreshErrorClass(StrEnum):
    BREAKER_OPEN = "breaker_open"
    FETCH_FAILED = "fetch_failed"
    INVALID_MANIFEST = "invalid_manifest"
    PERSIST_FAILED = "persist_failed"

    def __str__(self) -> str:
        return str(self.value)
