from enum import StrEnum


class SubscriptionReadCredentialKind(StrEnum):
    DELEGATED_GRANT = "delegated_grant"
    NONE = "none"
    SIGNING_SECRET = "signing_secret"
    STATIC_CREDENTIAL = "static_credential"

    def __str__(self) -> str:
        return str(self.value)
