"""Generated requests (schemathesis) against every built operation, with good and bad credentials.

Shared by the in-suite run (``test_fuzz.py``) and ``make fuzz`` (``tests/contract/fuzz.py``). Every
response is checked, and every problem is counted in a ``Tally`` instead of stopping the run:

- no 5xx;
- the status is one the operation declares;
- an error is ``application/problem+json`` whose ``status`` member is the response status;
- the body matches the schema the operation declares for that status (2xx bodies included).
"""

from __future__ import annotations

import copy
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import hypothesis
import orjson
import schemathesis
from hypothesis import HealthCheck, Phase, given
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.python import asgi

from hub.auth.tokens import mint_token
from hub.consumer.access import TRIAGE, consumer_claims
from hub.devtools.tree import DEFAULT_PERMISSIONS
from tests.contract.compare import METHODS, load_contract, operations, resolve

SEED = 20261203
CREDENTIALS = ("valid", "missing", "garbage", "expired")
# Half the cases carry the valid token, so most of them reach the operation.
CREDENTIAL_MIX = ("valid", "valid", "valid", *CREDENTIALS[1:])
PROBLEM_JSON = "application/problem+json"
MAX_EXAMPLES_KEPT = 20


@dataclass
class Tally:
    """What the generated requests found: counts per kind of failure and a few examples of each."""

    cases: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    by_operation: Counter[tuple[str, int]] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    @property
    def server_errors(self) -> int:
        return self.failures["5xx"]

    @property
    def undeclared(self) -> int:
        return self.failures["undeclared status"]

    @property
    def failed(self) -> bool:
        return sum(self.failures.values()) > 0

    def record(self, label: str, credential: str, status: int, problems: list[tuple[str, str]]) -> None:
        self.cases += 1
        self.statuses[status] += 1
        self.by_operation[(label, status)] += 1
        for kind, detail in problems:
            self.failures[kind] += 1
            if len(self.examples) < MAX_EXAMPLES_KEPT:
                self.examples.append(f"{label} [{credential} credential] → {status}: {kind}: {detail}")

    def summary(self) -> str:
        statuses = ", ".join(f"{code}×{count}" for code, count in sorted(self.statuses.items()))
        lines = [f"cases: {self.cases}", f"5xx: {self.server_errors}", f"undeclared status: {self.undeclared}",
                 f"other failures: {sum(self.failures.values()) - self.server_errors - self.undeclared} "
                 f"{dict(self.failures)}", f"statuses: {statuses}"]
        return "\n".join(lines + [f"  e.g. {example}" for example in self.examples])


class Credentials:
    """One tenant's tokens: a valid one (tenant permissions, the operator scope, seed 000's queue permissions
    and seed 003's read, purge and topic grants; no publish grant: a broker publish waits for ingest, which
    the fuzzer does not run) and bad ones."""

    def __init__(self, tenant: str | None = None) -> None:
        self.tenant = tenant or f"t-fuzz-{uuid.uuid4().hex[:10]}"
        permissions, claims = consumer_claims(list(DEFAULT_PERMISSIONS), None)
        self.tokens = {
            "valid": mint_token(tenant=self.tenant, permissions=[*permissions, TRIAGE], operator=True,
                                claims=claims, event_broker={"*": {"data": "RD", "topics": "RW"}}),
            "garbage": "not-a-jwt." + uuid.uuid4().hex,
            "expired": mint_token(tenant=self.tenant, permissions=permissions, operator=True, ttl_seconds=-120),
        }

    def apply(self, headers: dict[str, Any] | None, credential: str) -> dict[str, Any]:
        headers = {name: value for name, value in (headers or {}).items() if name.lower() != "authorization"}
        if credential != "missing":
            headers["Authorization"] = f"Bearer {self.tokens[credential]}"
        return headers


def _problem_issues(response: Any) -> list[tuple[str, str]]:
    content_type = response.headers.get("content-type", [""])
    content_type = content_type[0] if isinstance(content_type, list) else content_type
    if not content_type.startswith(PROBLEM_JSON):
        return [("error not problem+json", f"content-type {content_type!r}")]
    try:
        body = orjson.loads(response.content)
    except orjson.JSONDecodeError:
        return [("error not problem+json", "body is not JSON")]
    if not isinstance(body, dict) or body.get("status") != response.status_code:
        return [("error not problem+json", f"status member {body.get('status') if isinstance(body, dict) else body!r}")]
    return []


def check_response(case: Any, response: Any) -> list[tuple[str, str]]:
    """Every way ``response`` breaks the operation's declared contract, as (kind, detail) pairs."""
    status = response.status_code
    issues: list[tuple[str, str]] = []
    if status >= 500:
        issues.append(("5xx", response.text[:200]))
    declared = set(case.operation.definition.raw.get("responses", {}))
    if str(status) not in declared and "default" not in declared:
        issues.append(("undeclared status", f"declared {sorted(declared)}"))
        return issues
    if status >= 400:
        issues += _problem_issues(response)
    try:
        case.operation.validate_response(response, case=case)
    except BaseExceptionGroup as group:  # schemathesis raises its failures as a group
        titles = "; ".join(getattr(failure, "title", type(failure).__name__) + ": "
                           + (getattr(failure, "message", "") or "").splitlines()[0][:160]
                           for failure in group.exceptions)
        issues.append(("body breaks its schema", titles))
    return issues


#: Operations whose success body intentionally differs from the contract: the app's own schema is used
#: (the Python facts of /runtime). The subscription bodies are the contract's own again (N67).
APP_SCHEMA_RESPONSES = {"getRuntime": "200"}


def _inline(document: dict[str, Any], node: Any, depth: int = 0) -> Any:
    """``node`` with every local reference replaced by its target (for moving a schema between documents)."""
    node = resolve(document, node)
    if depth > 12:
        return node
    if isinstance(node, dict):
        return {key: _inline(document, value, depth + 1) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline(document, item, depth + 1) for item in node]
    return node


def fuzz_document(app: Any, pending: frozenset[str]) -> dict[str, Any]:
    """The contract restricted to the built operations, so bodies are checked against the contract's
    schemas (except the intended deviations in ``APP_SCHEMA_RESPONSES``)."""
    document = copy.deepcopy(load_contract())
    app_document = app.openapi()
    app_operations = operations(app_document)
    for path, item in list(document["paths"].items()):
        for method in METHODS:
            operation_id = item.get(method, {}).get("operationId")
            if operation_id in pending:
                del item[method]
            elif operation_id in APP_SCHEMA_RESPONSES:
                status = APP_SCHEMA_RESPONSES[operation_id]
                ours = app_operations[operation_id].spec["responses"][status]
                item[method]["responses"][status] = _inline(app_document, ours)
        if not any(method in item for method in METHODS):
            del document["paths"][path]
    return document


def load_schema(app: Any, document: dict[str, Any] | None = None) -> Any:
    """The schemathesis schema of ``app`` (its own OpenAPI document unless another is given)."""
    schema = schemathesis.openapi.from_dict(copy.deepcopy(document or app.openapi()))
    schema.app = app
    return schema


def built_operations(schema: Any) -> list[Any]:
    return [result.ok() for result in schema.get_all_operations()]


# Generated bodies rarely pass the hub's semantic checks; these valid ones are mixed in so that the
# 2xx answers (and their schemas) are exercised too. The webhook host is a public IP literal: no DNS
# lookup and no connection is made at create time.
_NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=24)
VALID_BODIES: dict[str, st.SearchStrategy[Any]] = {
    "createSubscription": st.one_of(
        st.fixed_dictionaries({"name": _NAMES, "sink_kind": st.just("pull")},
                              optional={"schema_major": st.integers(1, 5), "plan_tier": st.just("standard")}),
        st.fixed_dictionaries({"name": _NAMES, "sink_kind": st.just("webhook"),
                               "endpoint": st.just("https://93.184.215.14/hooks/fuzz")},
                              optional={"timeout_ms": st.sampled_from([0, 1000, 20000])}),
        st.fixed_dictionaries({"name": _NAMES, "sink_kind": st.just("rabbitmq"), "endpoint": st.just("orders/")}),
    ),
    "updateSubscriptionSchemaMajor": st.fixed_dictionaries({"schema_major": st.one_of(st.none(), st.integers(1, 3))}),
    # Extensions (make fuzz): the ordering option on every kind (N77: 200 or 422 ordering_unsupported), and
    # resumes of keys the seeded subscriptions may or may not have (404, 409 or 200).
    "putSubscriptionDeliveryOptions": st.fixed_dictionaries({}, optional={
        "ordering": st.one_of(st.none(), st.fixed_dictionaries({}, optional={
            "key": st.sampled_from(["partitionkey", "subject", "Bad Key"]),
            "on_dead_letter": st.sampled_from(["block", "skip"])})),
        "rate_limit_per_second": st.integers(1, 10)}),
    "resumeSubscriptionBlockedKey": st.fixed_dictionaries({"key": _NAMES, "action": st.sampled_from(["retry", "skip"])}),
}


def case_strategy(operation: Any, mode: GenerationMode, known_ids: list[str]) -> st.SearchStrategy[Any]:
    """Generated cases, mixed (in positive mode) with valid bodies and the ids of live subscriptions."""
    generated = operation.as_strategy(generation_mode=mode)
    if mode is not GenerationMode.POSITIVE:
        return generated
    mixed = [generated]
    operation_id = operation.definition.raw.get("operationId", "")
    has_id = "{id}" in operation.path
    if operation_id in VALID_BODIES:
        bodies = VALID_BODIES[operation_id]
        if has_id and known_ids:
            mixed.append(st.tuples(bodies, st.sampled_from(known_ids)).flatmap(
                lambda pair: operation.as_strategy(body=pair[0], path_parameters={"id": pair[1]})))
        elif not has_id:
            mixed.append(bodies.flatmap(lambda body: operation.as_strategy(body=body)))
    elif has_id and known_ids:
        mixed.append(st.sampled_from(known_ids).flatmap(lambda sub_id: operation.as_strategy(
            path_parameters={"id": sub_id})))
    return st.one_of(*mixed)


def _fresh_key_sometimes(case: Any, fresh: bool) -> None:
    # A generated key is often reused across cases (a 409 each time); a fresh one reaches the operation.
    if fresh and case.headers and "X-Idempotency" in case.headers:
        case.headers["X-Idempotency"] = f"fz-{uuid.uuid4().hex}"


def fuzz_operation(operation: Any, *, client: Any, credentials: Credentials, tally: Tally, max_examples: int,
                   seed: int = SEED, known_ids: list[str] | None = None) -> None:
    """Run ``max_examples`` positive and as many negative generated cases against one operation."""
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

        @hypothesis.seed(seed)
        @hypothesis.settings(max_examples=max_examples, derandomize=True, database=None, deadline=None,
                             phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck),
                             report_multiple_bugs=False)
        @given(case=case_strategy(operation, mode, known_ids or []), credential=st.sampled_from(CREDENTIAL_MIX),
               fresh_key=st.sampled_from((True, True, True, False)))
        def run(case: Any, credential: str, fresh_key: bool) -> None:
            case.headers = credentials.apply(case.headers, credential)
            _fresh_key_sometimes(case, fresh_key)
            response = case.call(session=client)
            tally.record(f"{operation.label} ({mode.value})", credential, response.status_code,
                         check_response(case, response))

        try:
            run()
        except Unsatisfiable:
            pass  # an operation with no inputs has no negative cases


def fuzz_all(app: Any, *, credentials: Credentials, max_examples: int, seed: int = SEED,
             document: dict[str, Any] | None = None) -> Tally:
    """The stateless run over every operation of ``document`` (default: the app's own)."""
    tally = Tally()
    schema = load_schema(app, document)
    with asgi.get_client(app) as client:
        known_ids = seed_subscriptions(client, credentials)
        for operation in built_operations(schema):
            fuzz_operation(operation, client=client, credentials=credentials, tally=tally,
                           max_examples=max_examples, seed=seed, known_ids=known_ids)
    return tally


def seed_subscriptions(client: Any, credentials: Credentials, count: int = 6) -> list[str]:
    """Live subscriptions of the fuzzing tenant, so reads and changes by id reach real rows."""
    ids = []
    for index in range(count):
        body = ({"name": f"seed-{index}", "sink_kind": "webhook", "endpoint": "https://93.184.215.14/hooks/seed"}
                if index % 2 else {"name": f"seed-{index}", "sink_kind": "pull"})
        headers = credentials.apply({"X-Idempotency": f"seed-{uuid.uuid4().hex}"}, "valid")
        response = client.post(f"http://{asgi.HOST}/v1/subscriptions", json=body, headers=headers)
        if response.status_code != 201:
            raise AssertionError(f"could not seed a subscription: {response.status_code} {response.text}")
        ids.append(response.json()["subscription"]["id"])
    return ids
