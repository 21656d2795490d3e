"""What the SQS and EventBridge sinks share: AWS clients per credential, delegated grants, error classes.

A static credential (``{"accessKeyId", "secretAccessKey", "sessionToken"?, "region"}``) gets one boto3
client per service and region, built once and reused. A delegated grant (``{"roleArn", "region",
"externalId", ...}``) is turned into session credentials by STS ``AssumeRole`` with the
subscription's ExternalId; they are cached until ``aws_credential_refresh_seconds`` before they
expire. The blocking SDK calls run on the sink's own thread pool.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import boto3
import botocore.exceptions as boto_errors
from botocore.config import Config

from hub.config import Settings
from hub.sinks.base import START_BY, AttemptResult, NotStarted, PreparedDelivery
from hub.sinks.vocabulary import ErrorClass

T = TypeVar("T")

AUTH_CODES = frozenset({
    "AccessDenied", "AccessDeniedException", "AuthFailure", "ExpiredToken", "ExpiredTokenException",
    "IncompleteSignature", "InvalidAccessKeyId", "InvalidClientTokenId", "InvalidSecurity",
    "MissingAuthenticationToken", "NotAuthorizedForSourceException", "SignatureDoesNotMatch",
    "UnrecognizedClientException", "KMS.AccessDeniedException",
})
MISSING_CODES = frozenset({
    "AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist", "NonExistentQueue",
    "ResourceNotFoundException",
})
SIZE_MARKERS = ("shorter than", "too long", "must be less than", "size exceeded", "over the limit")


class AwsStepFailed(Exception):
    """A step before the send (no credential, AssumeRole refused) failed; ``result`` says how."""

    def __init__(self, result: AttemptResult) -> None:
        super().__init__(result.detail)
        self.result = result


@dataclass(frozen=True)
class StaticKeys:
    """The access material of a static credential or of an assumed-role session."""

    access_key_id: str
    secret_access_key: str
    session_token: str | None = None

    def fingerprint(self) -> str:
        """A cache key that does not keep the secret itself in a dict key."""
        material = f"{self.access_key_id}\x00{self.secret_access_key}\x00{self.session_token or ''}"
        return hashlib.sha256(material.encode()).hexdigest()


def classify_client_error(exc: Exception, step: str) -> AttemptResult:
    """An SDK exception as an attempt result whose detail names the AWS step and code."""
    if isinstance(exc, boto_errors.ClientError):
        error = exc.response.get("Error", {})
        code = str(error.get("Code") or error.get("QueryErrorCode") or "Unknown")
        message = str(error.get("Message") or "")
        status = int(exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
        if status in (401, 403) and code not in AUTH_CODES and code.isdigit():
            # The error body was not in the protocol's shape (no AWS code): the status still says why.
            return AttemptResult.failure(ErrorClass.auth_failed, f"{step} failed: HTTP {status} (access refused)")
        return classify_aws_code(code, message, step)
    if isinstance(exc, (boto_errors.ConnectTimeoutError, boto_errors.ReadTimeoutError)):
        return AttemptResult.failure(ErrorClass.timeout, f"{step}: no answer in time")
    if isinstance(exc, boto_errors.EndpointConnectionError):
        return AttemptResult.failure(ErrorClass.connect_refused, f"{step}: could not connect to the AWS endpoint")
    if isinstance(exc, boto_errors.ConnectionClosedError):
        return AttemptResult.failure(ErrorClass.connection_reset, f"{step}: the connection was closed")
    if isinstance(exc, boto_errors.SSLError):
        return AttemptResult.failure(ErrorClass.tls, f"{step}: TLS failed")
    if isinstance(exc, (boto_errors.NoCredentialsError, boto_errors.PartialCredentialsError)):
        return AttemptResult.failure(ErrorClass.no_credential, f"{step}: no AWS credential available")
    if isinstance(exc, boto_errors.BotoCoreError):
        return AttemptResult.failure(ErrorClass.destination_error, f"{step}: {type(exc).__name__}")
    return AttemptResult.failure(ErrorClass.internal, f"{step}: {type(exc).__name__}")


def classify_aws_code(code: str, message: str, step: str) -> AttemptResult:
    """An AWS error code (request-level or per entry) as an attempt result."""
    detail = f"{step} failed: {code}"
    if code in AUTH_CODES:
        return AttemptResult.failure(ErrorClass.auth_failed, detail)
    if code in MISSING_CODES:
        return AttemptResult.failure(ErrorClass.destination_missing, detail)
    lowered = message.lower()
    if code in ("InvalidParameterValue", "ValidationException", "BatchRequestTooLong", "RequestEntityTooLarge") \
            and any(marker in lowered for marker in SIZE_MARKERS):
        return AttemptResult.failure(ErrorClass.payload_too_large, detail, terminal=True)
    return AttemptResult.failure(ErrorClass.destination_error, detail)


def _expiry(value: Any) -> float:
    if isinstance(value, datetime):
        return value.astimezone(UTC).timestamp()
    return time.time() + 900.0


class AwsClients:
    """boto3 clients per (service, region, keys), and assumed-role keys per grant, all reused."""

    def __init__(self, *, settings: Settings) -> None:
        self._settings = settings
        self._lock = threading.Lock()
        self._clients: dict[tuple[str, str, str], Any] = {}
        self._building: dict[tuple[str, str, str], threading.Lock] = {}  # dict.setdefault is atomic
        self._assumed: dict[tuple[str, str, str], tuple[StaticKeys, float]] = {}
        self._executor: ThreadPoolExecutor | None = None  # made on first use (probes never need it)
        self._config = Config(retries={"max_attempts": 1, "mode": "standard"}, connect_timeout=5,
                              read_timeout=10, max_pool_connections=max(10, settings.sink_io_threads))

    async def run(self, function: Callable[[], T]) -> T:
        """Run a blocking SDK call on this sink's threads; ``NotStarted`` when a thread took it up only
        after the caller's ``START_BY`` (the call waited behind the others, N108)."""
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=max(1, self._settings.sink_io_threads),
                                                thread_name_prefix="aws-sink")
        start_by = START_BY.get()
        if start_by != math.inf:
            function = _started_by(function, start_by)
        return await asyncio.get_running_loop().run_in_executor(self._executor, function)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            client.close()

    def _build(self, service: str, region: str, keys: StaticKeys | None) -> Any:
        endpoint = self._settings.aws_endpoint_url or None
        if keys is None:  # the hub's own identity (default credential chain), used for STS
            return boto3.session.Session().client(service, region_name=region, endpoint_url=endpoint,
                                                  config=self._config)
        return boto3.session.Session(
            aws_access_key_id=keys.access_key_id, aws_secret_access_key=keys.secret_access_key,
            aws_session_token=keys.session_token,
        ).client(service, region_name=region, endpoint_url=endpoint, config=self._config)

    def client(self, service: str, region: str, keys: StaticKeys | None) -> Any:
        """The cached client for these keys (None: the hub's own identity); built on first use."""
        cache_key = (service, region, keys.fingerprint() if keys else "")
        found = self._clients.get(cache_key)
        if found is not None:
            return found
        # One build per key: a burst of sends to a new destination would otherwise have every pool
        # thread build its own client at once (each one loads the service model: tenths of a second
        # of interpreter time apiece), and all but one would be thrown away.
        with self._building.setdefault(cache_key, threading.Lock()):
            found = self._clients.get(cache_key)
            if found is None:
                found = self._clients[cache_key] = self._build(service, region, keys)
        return found

    def assumed_keys(self, grant: Mapping[str, Any], *, session_name: str) -> StaticKeys:
        """Session keys of the grant's role (AssumeRole with its ExternalId), cached until near expiry."""
        role_arn, region = str(grant.get("roleArn") or ""), grant_region(grant, self._settings)
        external_id = grant_external_id(grant)
        cache_key = (role_arn, external_id, region)
        margin = self._settings.aws_credential_refresh_seconds
        with self._lock:
            cached = self._assumed.get(cache_key)
        if cached is not None and cached[1] - margin > time.time():
            return cached[0]
        sts = self.client("sts", region, None)
        try:
            answer = sts.assume_role(RoleArn=role_arn, RoleSessionName=session_name[:64], ExternalId=external_id,
                                     DurationSeconds=self._settings.aws_assume_role_seconds)
        except Exception as exc:  # noqa: BLE001 (classified, never raised to the engine)
            raise AwsStepFailed(classify_client_error(exc, "sts:AssumeRole")) from exc
        issued = answer["Credentials"]
        keys = StaticKeys(issued["AccessKeyId"], issued["SecretAccessKey"], issued.get("SessionToken"))
        with self._lock:
            self._assumed[cache_key] = (keys, _expiry(issued.get("Expiration")))
        return keys

    def forget_grant(self, grant: Mapping[str, Any]) -> None:
        """Drop cached session keys (after the destination refused them)."""
        cache_key = (str(grant.get("roleArn") or ""), grant_external_id(grant), grant_region(grant, self._settings))
        with self._lock:
            self._assumed.pop(cache_key, None)

    def client_for(self, service: str, *, credential: Mapping[str, Any] | None,
                   grant: Mapping[str, Any] | None, session_name: str) -> Any:
        """The client a delivery or probe uses: the static credential, else the delegated grant."""
        if credential:
            keys = static_keys(credential)
            return self.client(service, credential_region(credential, self._settings), keys)
        if grant:
            keys = self.assumed_keys(grant, session_name=session_name)
            return self.client(service, grant_region(grant, self._settings), keys)
        raise AwsStepFailed(AttemptResult.failure(
            ErrorClass.no_credential, "no credential and no delegated grant is registered"))


def _started_by(function: Callable[[], T], start_by: float) -> Callable[[], T]:
    """``function``, refused (``NotStarted``) when a thread takes it up after ``start_by`` (monotonic)."""
    def guarded() -> T:
        if time.monotonic() > start_by:
            raise NotStarted
        return function()
    return guarded


def static_keys(credential: Mapping[str, Any]) -> StaticKeys:
    access_key, secret_key = credential.get("accessKeyId"), credential.get("secretAccessKey")
    if not access_key or not secret_key:
        raise AwsStepFailed(AttemptResult.failure(ErrorClass.no_credential,
                                                  "the stored credential has no access key pair"))
    return StaticKeys(str(access_key), str(secret_key), str(credential["sessionToken"])
                      if credential.get("sessionToken") else None)


def grant_external_id(grant: Mapping[str, Any]) -> str:
    """The ExternalId a grant is assumed with (``externalId``, as ``providers.base.stored_access`` builds it)."""
    return str(grant.get("externalId") or "")


def credential_region(credential: Mapping[str, Any], settings: Settings) -> str:
    return str(credential.get("region") or settings.aws_region)


def grant_region(grant: Mapping[str, Any], settings: Settings) -> str:
    return str(grant.get("region") or settings.aws_region)


class AwsSinkBase:
    """What the AWS sinks share: settings, one client cache, one-delivery sends as a batch of one."""

    def __init__(self, *, settings: Settings) -> None:
        self._settings = settings
        self._aws = AwsClients(settings=settings)

    async def deliver(self, delivery: PreparedDelivery) -> AttemptResult:
        return (await self.deliver_many([delivery]))[0]

    async def deliver_many(self, deliveries: Sequence[PreparedDelivery]) -> list[AttemptResult]:
        raise NotImplementedError

    async def close(self) -> None:
        self._aws.close()
