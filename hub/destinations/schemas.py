"""Bodies of the destination routes: parsing and kind-specific checks (ProbeResult is hub.delivery's).

A body that is not a JSON object is ``400 bad_request``; one that breaks the schema is ``422
validation_error`` naming each refused field. Static credentials (``CredentialRequest.sinkConfig``):

- ``rabbitmq``: ``{"uri": "amqp[s]://user:pass@host[:port]/vhost"}``
- ``sqs`` / ``eventbridge``: ``{"region", "accessKeyId", "secretAccessKey", "sessionToken"?}``
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from hub.bodies import documented_models, parse_json
from hub.errors import ValidationFailed
from hub.shapes import ClosedModel, Uri
from hub.sinks.vocabulary import SinkKind
from hub.subscription.errors import invalid

REGION = re.compile(r"^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$")
ROLE_ARN = re.compile(r"^arn:aws[a-z-]*:iam::[0-9]{12}:role/[A-Za-z0-9+=,.@_/-]{1,512}$")
BUS_ARN = re.compile(r"^arn:aws[a-z-]*:events:([a-z0-9-]+):[0-9]{12}:event-bus/([A-Za-z0-9._/-]{1,256})$")
ACCESS_KEY = re.compile(r"^[A-Z0-9]{16,128}$")
MAX_FIELD = 4096


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


def _text(body: dict[str, Any], name: str, location: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value.strip():
        raise invalid(location, f"{location} is required and must be a non-empty string")
    if len(value) > MAX_FIELD or any(ord(char) < 0x20 for char in value):
        raise invalid(location, f"{location} is too long or has control characters")
    return value


def sink_config(raw: bytes, content_type: str | None) -> dict[str, Any]:
    """R-putSubscriptionCredential-08/10: ``{sinkConfig}`` only, a non-empty object."""
    body = json_object(raw, content_type)
    _only(body, ("sinkConfig",))
    config = body.get("sinkConfig")
    if not isinstance(config, dict) or not config:
        raise invalid("sinkConfig", "sinkConfig is required and must be a non-empty object")
    return config


def static_credential(kind: SinkKind, config: dict[str, Any]) -> dict[str, Any]:
    """The credential to probe and store, normalized per kind (422 naming the refused key)."""
    if kind is SinkKind.rabbitmq:
        uri = _text(config, "uri", "sinkConfig/uri")
        parts = urlsplit(uri)
        if parts.scheme.lower() not in ("amqp", "amqps") or not parts.hostname or not parts.username:
            raise invalid("sinkConfig/uri", "uri must be amqp:// or amqps:// with a user, password and host")
        try:
            parts.port  # noqa: B018 (a malformed port raises here)
        except ValueError:
            raise invalid("sinkConfig/uri", "the uri port is not valid") from None
        return {"uri": uri}
    region = _text(config, "region", "sinkConfig/region")
    if not REGION.match(region):
        raise invalid("sinkConfig/region", "region is not an AWS region name")
    access_key = _text(config, "accessKeyId", "sinkConfig/accessKeyId")
    if not ACCESS_KEY.match(access_key):
        raise invalid("sinkConfig/accessKeyId", "accessKeyId is not an AWS access key id")
    credential = {"region": region, "accessKeyId": access_key,
                  "secretAccessKey": _text(config, "secretAccessKey", "sinkConfig/secretAccessKey")}
    if config.get("sessionToken") is not None:
        credential["sessionToken"] = _text(config, "sessionToken", "sinkConfig/sessionToken")
    return credential


def grant_request(raw: bytes, content_type: str | None) -> GrantRequest:
    """R-putSubscriptionDelegatedGrant-02/03: roleArn, region, destination; nothing else."""
    body = json_object(raw, content_type)
    _only(body, ("roleArn", "region", "destination"))
    missing = [name for name in ("roleArn", "region", "destination") if name not in body]
    if missing:
        raise ValidationFailed("the grant needs roleArn, region and destination",
                               errors=[{"location": name, "message": "required"} for name in missing])
    role_arn, region = _text(body, "roleArn", "roleArn"), _text(body, "region", "region")
    if not ROLE_ARN.match(role_arn):
        raise invalid("roleArn", "roleArn is not an IAM role ARN")
    if not REGION.match(region):
        raise invalid("region", "region is not an AWS region name")
    return GrantRequest(role_arn=role_arn, region=region, destination=_text(body, "destination", "destination"))


documented_models.extend([CredentialRequest, DelegatedGrantRequest])
