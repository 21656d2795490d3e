"""Settings groups: AuthSettings, SecretsSettings, EgressSettings."""

from __future__ import annotations

from pydantic import Field, SecretStr

from hub.settings.base import CommaList, HubSettingsGroup


class AuthSettings(HubSettingsGroup):
    """Tokens, their claims and the optional decision service (docs/contract-notes.md N15)."""

    jwt_hs256_secret: SecretStr = SecretStr("dev-only-insecure-hs256-secret-change-me")
    """Shared secret for HS256 tokens (`hub token` mints them)."""

    jwt_public_key_pem: str = ""
    """PEM public key for RS256/ES256 tokens."""

    jwt_jwks_url: str = ""
    """JWKS URL for RS256/ES256 tokens."""

    jwt_jwks_cache_seconds: int = 300
    """How long a fetched JWKS is reused."""

    jwt_algorithms: CommaList = Field(default_factory=lambda: ["HS256", "RS256", "ES256"])
    """Accepted token algorithms (`none` never is)."""

    jwt_issuer: str = "streaming-hub-dev"
    """Required `iss` claim."""

    jwt_audience: str = "streaming-hub"
    """Required `aud` claim."""

    jwt_leeway_seconds: int = 5
    """Clock skew allowed on `exp` and `nbf`."""

    jwt_verified_cache_seconds: int = 60
    """How long a process reuses a token's verified claims before it checks the same token again (never past its `exp`; 0: every request)."""

    claim_tenant: str = "tenant_id"
    """Claim that carries the tenant id."""

    claim_permissions: str = "permissions"
    """Claim that carries the `resource:action` permissions."""

    claim_scope: str = "scope"
    """Claim that carries the OAuth scope (operator scope)."""

    claim_delegated_scope: str = "delegated_scope"
    """Claim that carries the delegated scope."""

    claim_nature: str = "nature"
    """Claim that tells a user token from a service token."""

    operator_scope: str = "hub:operator"
    """Scope value that grants the operator routes (`/admin/...`)."""

    decision_service_url: str = ""
    """Optional authorization decision service; empty: permissions from the token."""

    decision_service_timeout_seconds: float = 2.0
    """Timeout of a decision service call."""


class SecretsSettings(HubSettingsGroup):
    """Secrets at rest: the sealing keys, newest first."""

    encryption_keys: CommaList = Field(
        default_factory=lambda: ["dev1:ZGV2LW9ubHktaW5zZWN1cmUtZW5jcnlwdGlvbi1rZXk="]
    )
    """Sealing keys for secrets at rest, `key_id:base64(32 bytes)`, newest first."""


class EgressSettings(HubSettingsGroup):
    """Outbound destinations: which private ranges they may reach, how their names resolve."""

    egress_allow_cidrs: CommaList = Field(default_factory=list)
    """Private ranges destinations may resolve to (all are refused by default)."""

    dns_timeout_seconds: float = 2.0
    """Timeout of a destination's DNS lookup."""

    dns_nameservers: CommaList = Field(default_factory=list)
    """`host[:port]` DNS servers for destination checks; empty: the system's."""
