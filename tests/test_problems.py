"""Every error the app produces is problem+json (R-X-PROB-*, docs/contract-notes.md N11)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.testclient import TestClient
from pydantic import BaseModel

from hub.app import create_app

router = APIRouter()


class Body(BaseModel):
    name: str


@router.post("/v1/_echo")
def echo(body: Body) -> dict:
    return {"name": body.name}


@router.get("/v1/_boom")
def boom() -> dict:
    raise RuntimeError("secret-database-password=hunter2 leaked in a cause")


def _client() -> TestClient:
    app = create_app()
    app.include_router(router)
    return TestClient(app, raise_server_exceptions=False)


def _problem(response, status: int) -> dict:
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status and body["title"] and body["detail"]
    return body


def test_framework_404_and_405_are_problems_without_code():
    """R-X-PROB-01, R-X-PROB-03: framework rejections carry no code and type about:blank."""
    with _client() as client:
        not_found = _problem(client.get("/v1/nowhere"), 404)
        assert "code" not in not_found and not_found["type"] == "about:blank"
        assert not_found["title"] == "Not Found"
        wrong_method = _problem(client.delete("/healthz"), 405)
        assert "code" not in wrong_method


def test_malformed_and_schema_invalid_bodies_are_422_without_code():
    """R-X-PROB-03, N1: malformed JSON and schema-invalid bodies fall through to the framework."""
    with _client() as client:
        malformed = _problem(client.post("/v1/_echo", content=b"{not json",
                                         headers={"content-type": "application/json"}), 422)
        assert "code" not in malformed
        invalid = _problem(client.post("/v1/_echo", json={"name": 3}), 422)
        assert "code" not in invalid and invalid["errors"][0]["location"] == "name"


def test_unhandled_error_is_scrubbed_500_with_trace_instance(caplog):
    """R-X-PROB-06, R-X-PROB-04: 500 internal_error, detail `internal error`, instance = trace id, cause logged."""
    with _client() as client:
        response = client.get("/v1/_boom", headers={"traceparent": "00-" + "ab" * 16 + "-" + "cd" * 8 + "-01"})
    body = _problem(response, 500)
    assert body["code"] == "internal_error" and body["detail"] == "internal error"
    assert body["instance"] == "ab" * 16
    assert response.headers["x-trace-id"] == "ab" * 16
    assert "hunter2" not in response.text
    assert any("unhandled error" in record.getMessage() for record in caplog.records)


def test_log_lines_scrub_secrets(capsys):
    """No secret ever logged: the JSON formatter scrubs credential-looking text."""
    import logging

    from hub.logs import JsonFormatter

    record = logging.LogRecord("t", logging.INFO, __file__, 1,
                               "connect amqp://user:pa55word@host/ token=abc123 Bearer eyJhbGciOi", None, None)
    line = JsonFormatter().format(record)
    assert "pa55word" not in line and "abc123" not in line and "eyJhbGciOi" not in line
