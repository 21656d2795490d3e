"""The AWS delegated-grant onboarding artifacts: trust policy JSON and CloudFormation quick-create link.

Both name the hub's principal (``aws_hub_principal_arn``) and the subscription's ExternalId. The
quick-create link opens ``deploy/aws/delivery-role.yaml`` (served at ``aws_setup_template_url``)
with its parameters filled in: the principal, the ExternalId, the destination kind and its name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, urlencode, urlsplit

import orjson

from hub.sinks.vocabulary import SinkKind

SQS_HOST_REGION = re.compile(r"^sqs\.([a-z]{2}(?:-[a-z]+)+-[0-9]{1,2})\.amazonaws\.com(?:\.cn)?$")


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


def destination_name(kind: SinkKind, endpoint: str) -> str:
    """The queue name (last path segment of the queue URL) or the event bus name."""
    if kind is SinkKind.sqs:
        segments = [segment for segment in urlsplit(endpoint).path.split("/") if segment]
        return segments[-1] if segments else ""
    return endpoint.partition("/")[0]


def endpoint_region(kind: SinkKind, endpoint: str) -> str | None:
    """The region an SQS queue URL names in its host (``sqs.<region>.amazonaws.com``), if any."""
    if kind is not SinkKind.sqs:
        return None
    match = SQS_HOST_REGION.match((urlsplit(endpoint).hostname or "").lower())
    return match.group(1) if match else None


def quick_create_url(*, template_url: str, region: str, stack_name: str, principal_arn: str, external_id: str,
                     kind: SinkKind, name: str) -> str:
    """The console link that creates the delivery role stack with every parameter filled in."""
    query = urlencode({
        "templateURL": template_url,
        "stackName": stack_name,
        "param_HubPrincipalArn": principal_arn,
        "param_ExternalId": external_id,
        "param_DestinationKind": kind.value,
        "param_DestinationName": name,
    }, quote_via=quote)
    return (f"https://{region}.console.aws.amazon.com/cloudformation/home?region={region}"
            f"#/stacks/quickcreate?{query}")


def build_artifacts(*, principal_arn: str, template_url: str, external_id: str, region: str, kind: SinkKind,
                    endpoint: str, subscription_id: str) -> SetupArtifacts:
    name = destination_name(kind, endpoint)
    return SetupArtifacts(
        external_id=external_id, region=region,
        trust_policy=trust_policy(principal_arn=principal_arn, external_id=external_id),
        quick_create_url=quick_create_url(
            template_url=template_url, region=region, stack_name=f"streaming-hub-{subscription_id[:8]}",
            principal_arn=principal_arn, external_id=external_id, kind=kind, name=name),
    )
