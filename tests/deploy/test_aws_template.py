"""deploy/aws/delivery-role.yaml: cfn-lint clean, and the stack it creates (moto CloudFormation) is a role the
hub can verify and deliver with (R-getSubscriptionSetupArtifacts-02, R-verifySubscription-07)."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from devkit.destinations import aws, unique

TEMPLATE = Path(__file__).resolve().parents[2] / "deploy" / "aws" / "delivery-role.yaml"


def _lint(path: Path) -> list:
    """cfn-lint's findings (errors and warnings) for the template at ``path``."""
    from cfnlint.api import lint_file

    return list(lint_file(path))


def _document(value: object) -> dict:
    """A policy document as moto returns it (a dict, JSON text, or a Python literal)."""
    if isinstance(value, dict):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return ast.literal_eval(value)


def test_template_is_cfn_lint_clean(tmp_path):
    """The shipped template passes cfn-lint; a copy with a broken reference does not (the check can fail)."""
    assert _lint(TEMPLATE) == []
    broken = tmp_path / "broken.yaml"
    broken.write_text(TEMPLATE.read_text().replace("!Ref HubPrincipalArn", "!Ref HubPrincipal"))
    assert _lint(broken) != []


def test_quick_create_parameters_build_a_trusting_least_privilege_role(api, setup_configured, aws_destinations):
    """The quick-create link's parameters, given to the template (moto CloudFormation), make a role whose
    trust policy is the artifacts' (hub principal + ExternalId) and whose only permission is the one queue."""
    endpoint = aws_destinations.queue()
    sub_id = api.subscription("sqs", endpoint)
    artifacts = api.artifacts(sub_id).json()
    params = parse_qs(urlsplit(artifacts["quickCreateUrl"]).fragment.partition("?")[2])
    given = [{"ParameterKey": key.removeprefix("param_"), "ParameterValue": values[0]}
             for key, values in params.items() if key.startswith("param_")]
    cloudformation, stack = aws("cloudformation"), unique("hub-role")
    cloudformation.create_stack(StackName=stack, TemplateBody=TEMPLATE.read_text(), Parameters=given,
                                Capabilities=["CAPABILITY_IAM"])
    try:
        outputs = {o["OutputKey"]: o["OutputValue"]
                   for o in cloudformation.describe_stacks(StackName=stack)["Stacks"][0]["Outputs"]}
        role_name = outputs["RoleArn"].rsplit("/", 1)[1]
        role = aws("iam").get_role(RoleName=role_name)["Role"]
        trust = _document(role["AssumeRolePolicyDocument"])
        assert trust["Statement"] == json.loads(artifacts["trustPolicy"])["Statement"]
        [policy_name] = aws("iam").list_role_policies(RoleName=role_name)["PolicyNames"]
        document = aws("iam").get_role_policy(RoleName=role_name, PolicyName=policy_name)["PolicyDocument"]
        document = _document(document)
        # moto leaves AWS::NoValue in a list as null where CloudFormation drops it (no queue key given).
        [statement] = [item for item in document["Statement"] if item is not None]
        assert statement["Action"] == ["sqs:SendMessage", "sqs:GetQueueAttributes"]
        assert statement["Resource"].endswith(":" + endpoint.rsplit("/", 1)[1])
        grant = {"roleArn": outputs["RoleArn"], "region": "us-east-1", "destination": endpoint}
        assert api.grant(sub_id, grant).status_code == 200
        assert api.verify(sub_id).json()["outcome"] == "ok"
    finally:
        cloudformation.delete_stack(StackName=stack)
