"""What the SQS and EventBridge providers share: the static AWS credential, the probe, the setup artifacts.

A static credential is ``{"region", "accessKeyId", "secretAccessKey", "sessionToken"?}``. A probe is
one read call with the credential or the grant (a grant is first exchanged for session keys with STS
``AssumeRole`` and its ExternalId); its detail names the failed step and the AWS error code. The
setup artifacts are the trust policy JSON and the CloudFormation quick-create link, both naming the
hub's principal and the subscription's ExternalId.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import quote, urlencode

import orjson

from hub.config import Settings
from hub.errors import HubError, invalid
from hub.providers.base import ProbeTarget, Provider, text_field
from hub.sinks.base import AttemptResult, elapsed_ms
from hub.sinks.vocabulary import ErrorClass

log = logging.getLogger("hub.destinations")
REGION = re.compile(r"^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$")
ACCESS_KEY = re.compile(r"^[A-Z0-9]{16,128}$")


class SetupNotConfigured(HubError):
    """The deployment lacks the hub principal ARN or the template URL (the cause is logged only)."""

    status, code, default_detail = 500, "internal_error", "internal error"


@dataclass(frozen=True)
class SetupArtifacts:
    external_id: str
    region: str
    trust_policy: str
    quick_create_url: str

    def as_response(self) -> dict[str, str]:
        return {"externalId": self.external_id, "region": self.region, "trustPolicy": self.trust_policy,
                "quickCreateUrl": self.quick_create_url}


def trust_policy(*, principal_arn: str, external_id: str) -> str:
    """The role trust policy: only the hub's principal may assume it, and only with this ExternalId."""
    document = {
        "Version": "2012-10-17",
        "Statement": [{
            "Sid": "StreamingHubDelivery",
            "Effect": "Allow",
            "Principal": {"AWS": principal_arn},
            "Action": "sts:AssumeRole",
            "Condition": {"StringEquals": {"sts:ExternalId": external_id}},
        }],
    }
    return orjson.dumps(document, option=orjson.OPT_INDENT_2).decode()


def quick_create_url(*, template_url: str, region: str, stack_name: str, principal_arn: str, external_id: str,
                     kind: str, name: str) -> str:
    """The console link that creates the delivery role stack with every parameter filled in."""
    query = urlencode({
        "templateURL": template_url,
        "stackName": stack_name,
        "param_HubPrincipalArn": principal_arn,
        "param_ExternalId": external_id,
        "param_DestinationKind": kind,
        "param_DestinationName": name,
    }, quote_via=quote)
    return (f"https://{region}.console.aws.amazon.com/cloudformation/home?region={region}"
            f"#/stacks/quickcreate?{query}")


def _setup_settings(settings: Settings) -> tuple[str, str]:
    if not settings.aws_hub_principal_arn or not settings.aws_setup_template_url:
        log.error("setup artifacts requested but HUB_AWS_HUB_PRINCIPAL_ARN or HUB_AWS_SETUP_TEMPLATE_URL is unset")
        raise SetupNotConfigured()
    return settings.aws_hub_principal_arn, settings.aws_setup_template_url


class AwsProvider(Provider):
    """A destination in the customer's AWS account, reached by a static key pair or a delegated grant."""

    service: ClassVar[str]  # the boto3 service name
    probe_step: ClassVar[str]  # the read call the probe makes, as the detail names it
    verifies = takes_credential = takes_grant = True

    def parse_credential(self, config: dict[str, Any]) -> dict[str, Any]:
        region = text_field(config, "region", "sinkConfig/region")
        if not REGION.match(region):
            raise invalid("sinkConfig/region", "region is not an AWS region name")
        access_key = text_field(config, "accessKeyId", "sinkConfig/accessKeyId")
        if not ACCESS_KEY.match(access_key):
            raise invalid("sinkConfig/accessKeyId", "accessKeyId is not an AWS access key id")
        credential = {"region": region, "accessKeyId": access_key,
                      "secretAccessKey": text_field(config, "secretAccessKey", "sinkConfig/secretAccessKey")}
        if config.get("sessionToken") is not None:
            credential["sessionToken"] = text_field(config, "sessionToken", "sinkConfig/sessionToken")
        return credential

    def probe_call(self, client: Any, endpoint: str) -> None:
        """The read call that proves the destination exists and the access may reach it."""
        raise NotImplementedError

    def probe(self, target: ProbeTarget, settings: Settings) -> AttemptResult:
        from hub.providers.aws.sink import AwsClients, AwsStepFailed, classify_client_error

        started = time.perf_counter()
        clients = AwsClients(settings=settings)
        try:
            client = clients.client_for(self.service, credential=target.access.credential,
                                        grant=target.access.grant, session_name=f"hub-verify-{target.subscription_id}")
            self.probe_call(client, target.endpoint)
        except AwsStepFailed as failed:
            return failed.result
        except Exception as exc:  # noqa: BLE001 (classified)
            result = classify_client_error(exc, self.probe_step)
            return AttemptResult.failure(ErrorClass(result.error_class), result.detail, latency_ms=elapsed_ms(started))
        finally:
            clients.close()
        return AttemptResult.success(latency_ms=elapsed_ms(started))

    def endpoint_region(self, endpoint: str) -> str | None:
        """The region the endpoint itself names, if any."""
        return None

    def check_setup(self, settings: Settings) -> None:
        _setup_settings(settings)

    def setup_artifacts(self, *, endpoint: str, external_id: str, region: str | None, settings: Settings,
                        subscription_id: str) -> SetupArtifacts:
        """R-getSubscriptionSetupArtifacts-02..06 (``region``: the grant's, when one is stored)."""
        principal_arn, template_url = _setup_settings(settings)
        region = region or self.endpoint_region(endpoint) or settings.aws_region
        return SetupArtifacts(
            external_id=external_id, region=region,
            trust_policy=trust_policy(principal_arn=principal_arn, external_id=external_id),
            quick_create_url=quick_create_url(
                template_url=template_url, region=region, stack_name=f"streaming-hub-{subscription_id[:8]}",
                principal_arn=principal_arn, external_id=external_id, kind=self.kind.value,
                name=self.display(endpoint)))
