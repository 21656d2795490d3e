"""Bodies and answers of the destination routes (ping, verify, credential, grant, setup artifacts).

A body that is not a JSON object is ``400 bad_request``; one that breaks the schema is ``422
validation_error`` naming each refused field. What a ``sinkConfig`` holds is the kind's provider's
to parse (``hub.providers``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from hub.bodies import documented_models, parse_json
from hub.errors import ValidationFailed
from hub.providers.aws.provider import REGION
from hub.providers.base import text_field
from hub.schema_base import ClosedModel, Uri
from hub.sinks.base import AttemptResult
from hub.subscription.errors import invalid

ROLE_ARN = re.compile(r"^arn:aws[a-z-]*:iam::[0-9]{12}:role/[A-Za-z0-9+=,.@_/-]{1,512}$")


class ProbeResult(ClosedModel):
    """The classified result of a synchronous probe; ``detail`` only on failure."""

    # The routes answer with the plain JSON that ``probe_result`` builds; this model documents it.

    outcome: Literal["ok", "failed"]
    statusCode: int  # noqa: N815 (the contract's name)
    errorClass: str  # noqa: N815
    detail: str = Field(default=None)  # type: ignore[assignment] (absent on success, never null)


def probe_result(result: AttemptResult) -> dict[str, Any]:
    """R-X-STATE-07/08, the contract's ProbeResult of ping, verify and the credential PUT: outcome,
    statusCode (the webhook's HTTP status; queue sinks always report 0), errorClass ("" on success),
    detail only on failure."""
    if result.ok:
        return {"outcome": "ok", "statusCode": result.status_code, "errorClass": ""}
    return {"outcome": "failed", "statusCode": result.status_code, "errorClass": result.error_class,
            "detail": result.detail or result.error_class}


class SetupArtifactsResponse(ClosedModel):
    externalId: str  # noqa: N815
    region: str
    trustPolicy: str  # noqa: N815
    quickCreateUrl: Uri  # noqa: N815


class CredentialRequest(ClosedModel):
    """The credential PUT body as the OpenAPI document shows it (parsed by ``sink_config``)."""

    sinkConfig: dict[str, Any]


class DelegatedGrantRequest(ClosedModel):
    """The delegated-grant body as the OpenAPI document shows it (parsed by ``grant_request``)."""

    roleArn: str
    region: str
    destination: str


@dataclass(frozen=True)
class GrantRequest:
    role_arn: str
    region: str
    destination: str


def json_object(raw: bytes, content_type: str | None) -> dict[str, Any]:
    """The body as a JSON object: 400 bad_request when it is not UTF-8 JSON sent as JSON."""
    if not raw.strip():
        raise invalid("body", "a JSON body is required")
    value = parse_json(raw, content_type)
    if not isinstance(value, dict):
        raise invalid("body", "the body must be a JSON object")
    return value


def _only(body: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ValidationFailed("the body has unknown fields",
                               errors=[{"location": name, "message": "unknown field"} for name in unknown])


def sink_config(raw: bytes, content_type: str | None) -> dict[str, Any]:
    """R-putSubscriptionCredential-08/10: ``{sinkConfig}`` only, a non-empty object."""
    body = json_object(raw, content_type)
    _only(body, ("sinkConfig",))
    config = body.get("sinkConfig")
    if not isinstance(config, dict) or not config:
        raise invalid("sinkConfig", "sinkConfig is required and must be a non-empty object")
    return config


def grant_request(raw: bytes, content_type: str | None) -> GrantRequest:
    """R-putSubscriptionDelegatedGrant-02/03: roleArn, region, destination; nothing else."""
    body = json_object(raw, content_type)
    _only(body, ("roleArn", "region", "destination"))
    missing = [name for name in ("roleArn", "region", "destination") if name not in body]
    if missing:
        raise ValidationFailed("the grant needs roleArn, region and destination",
                               errors=[{"location": name, "message": "required"} for name in missing])
    role_arn, region = text_field(body, "roleArn", "roleArn"), text_field(body, "region", "region")
    if not ROLE_ARN.match(role_arn):
        raise invalid("roleArn", "roleArn is not an IAM role ARN")
    if not REGION.match(region):
        raise invalid("region", "region is not an AWS region name")
    return GrantRequest(role_arn=role_arn, region=region, destination=text_field(body, "destination", "destination"))


documented_models.extend([CredentialRequest, DelegatedGrantRequest])
