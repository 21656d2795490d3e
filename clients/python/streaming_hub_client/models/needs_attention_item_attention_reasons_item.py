from enum import StrEnum


class NeedsAttentionItemAttentionReasonsItem(StrEnum):
    AUTO_DISABLED = "auto_disabled"
    DEAD_LETTERED_IN_PERIOD = "dead_lettered_in_period"
    FAILED_IN_PERIOD_WITHOUT_SUCCESS_AFTER_FAILURE = (
        "failed_in_period_without_success_after_failure"
    )
    MANUALLY_DISABLED = "manually_disabled"
    VERIFICATION_NOT_ACTIVE = "verification_not_active"

    def __str__(self) -> str:
        return str(self.value)
