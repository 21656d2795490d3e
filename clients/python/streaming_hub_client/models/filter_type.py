from enum import StrEnum


class FilterType(StrEnum):
    EQ = "eq"
    STARTS_WITH_GREEDY = "starts_with_greedy"
    STARTS_WITH_LAZY = "starts_with_lazy"
    UNSPECIFIED = "unspecified"

    def __str__(self) -> str:
        return str(self.value)
