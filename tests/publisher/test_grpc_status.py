"""The one mapping from domain errors to gRPC statuses (hub.grpcapi.status), on the seed's codes."""

from __future__ import annotations

import grpc
import pytest

from hub.errors import (
    BadRequest,
    DecisionTimeout,
    HubError,
    InvalidToken,
    MissingToken,
    NotFound,
    PermissionDenied,
    ValidationFailed,
)
from hub.grpcapi.status import status_of, trailing_metadata
from hub.publisher.admission import Overloaded


@pytest.mark.parametrize(("error", "code"), [
    (MissingToken(), grpc.StatusCode.UNAUTHENTICATED), (InvalidToken(), grpc.StatusCode.UNAUTHENTICATED),
    (PermissionDenied(), grpc.StatusCode.PERMISSION_DENIED), (ValidationFailed(), grpc.StatusCode.INVALID_ARGUMENT),
    (BadRequest(), grpc.StatusCode.INVALID_ARGUMENT), (NotFound(), grpc.StatusCode.NOT_FOUND),
    (Overloaded(), grpc.StatusCode.RESOURCE_EXHAUSTED), (DecisionTimeout(), grpc.StatusCode.DEADLINE_EXCEEDED),
    (HubError(), grpc.StatusCode.INTERNAL),
])
def test_each_domain_error_has_its_status(error: HubError, code: grpc.StatusCode) -> None:
    assert status_of(error) == code


def test_the_code_and_retry_after_ride_as_trailing_metadata(override_settings) -> None:  # noqa: ANN001
    override_settings(publisher_retry_after_seconds=4)
    assert trailing_metadata(Overloaded()) == (("hub-error-code", "publisher_overloaded"), ("retry-after", "4"))
    assert trailing_metadata(PermissionDenied()) == (("hub-error-code", "AUT-1020"),)
