"""Bearer JWT authentication and permission checks (R-X-AUTH-*, docs/contract-notes.md N15)."""

from __future__ import annotations

import base64
import json
import time
from typing import Annotated

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from fastapi import APIRouter, Depends
from fastapi.testclient import TestClient

from hub.app import create_app
from hub.auth.deps import require_operator, require_permission
from hub.auth.tokens import Principal, decode_token
from hub.config import get_settings
from hub.errors import InvalidToken
from devkit.httpserver import json_reply, serve

probe_router = APIRouter()


@probe_router.get("/v1/_probe")
def tenant_probe(principal: Annotated[Principal, Depends(require_permission("catalog", "get"))]) -> dict:
    return {"tenant": principal.tenant_id}


@probe_router.get("/admin/_probe")
def operator_probe(principal: Annotated[Principal, Depends(require_operator)]) -> dict:
    return {"operator": True}


@pytest.fixture
def probe_client():
    app = create_app()
    app.include_router(probe_router)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def _claims(tenant: str, **extra) -> dict:
    settings = get_settings()
    now = int(time.time())
    return {"sub": "s", "iat": now, "exp": now + 300, "iss": settings.jwt_issuer, "aud": settings.jwt_audience,
            "tenant_id": tenant, "permissions": ["catalog:get"], **extra}


def _assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == code and body["status"] == status and body["title"]
    assert body["type"].endswith(code)
    return body


def test_valid_token_reaches_route(probe_client, make_token, tenant):
    """R-X-AUTH-01: a verified bearer token carries the tenant from its claim."""
    response = probe_client.get("/v1/_probe", headers={"Authorization": f"Bearer {make_token()}"})
    assert response.status_code == 200 and response.json() == {"tenant": tenant}


def test_missing_token_is_aut_0006(probe_client):
    """R-X-AUTH-02: no token → 401 AUT-0006."""
    _assert_problem(probe_client.get("/v1/_probe"), 401, "AUT-0006")
    _assert_problem(probe_client.get("/v1/_probe", headers={"Authorization": "Basic abc"}), 401, "AUT-0006")


@pytest.mark.parametrize("kind", ["garbage", "alg_none", "wrong_key", "wrong_audience", "wrong_issuer",
                                  "expired", "not_yet_valid", "no_exp"])
def test_untrusted_tokens_are_aut_0007(probe_client, tenant, kind):
    """R-X-AUTH-02: an expired, invalid or malformed token → 401 AUT-0007."""
    secret = get_settings().jwt_hs256_secret.get_secret_value()
    claims = _claims(tenant)
    if kind == "garbage":
        token = "not.a.jwt"
    elif kind == "alg_none":
        header = base64.urlsafe_b64encode(json.dumps({"alg": "none", "typ": "JWT"}).encode()).rstrip(b"=")
        payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=")
        token = f"{header.decode()}.{payload.decode()}."
    elif kind == "wrong_key":
        token = jwt.encode(claims, "another-secret-of-enough-length-000000", algorithm="HS256")
    else:
        if kind == "wrong_audience":
            claims["aud"] = "someone-else"
        elif kind == "wrong_issuer":
            claims["iss"] = "rogue-issuer"
        elif kind == "expired":
            claims["exp"] = int(time.time()) - 120
        elif kind == "not_yet_valid":
            claims["nbf"] = int(time.time()) + 600
        elif kind == "no_exp":
            claims.pop("exp")
        token = jwt.encode(claims, secret, algorithm="HS256")
    _assert_problem(probe_client.get("/v1/_probe", headers={"Authorization": f"Bearer {token}"}), 401, "AUT-0007")


def test_token_without_tenant_is_unauthorized(probe_client, make_token):
    """R-X-AUTH-02: a token with no tenant context → 401 unauthorized."""
    token = make_token(tenant_id=None)
    _assert_problem(probe_client.get("/v1/_probe", headers={"Authorization": f"Bearer {token}"}), 401,
                    "unauthorized")


def test_missing_permission_is_aut_1020_naming_it(probe_client, make_token):
    """R-X-AUTH-03: lacking the permission → 403 AUT-1020 with detail naming resource:action."""
    token = make_token(permissions=["subscriptions:get"])
    body = _assert_problem(probe_client.get("/v1/_probe", headers={"Authorization": f"Bearer {token}"}), 403,
                           "AUT-1020")
    assert "catalog:get" in body["detail"]


def test_admin_needs_operator_scope(probe_client, make_token):
    """R-X-AUTH-06: /admin authorizes against the operator scope, not the tenant."""
    tenant_only = make_token()
    _assert_problem(probe_client.get("/admin/_probe", headers={"Authorization": f"Bearer {tenant_only}"}), 403,
                    "forbidden")
    operator = make_token(tenant_id=None, permissions=[], operator=True)
    response = probe_client.get("/admin/_probe", headers={"Authorization": f"Bearer {operator}"})
    assert response.status_code == 200


def _pem_private(key) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _pem_public(key) -> str:
    return key.public_key().public_bytes(serialization.Encoding.PEM,
                                         serialization.PublicFormat.SubjectPublicKeyInfo).decode()


@pytest.mark.parametrize("algorithm", ["RS256", "ES256"])
def test_asymmetric_token_with_pem_key(probe_client, override_settings, tenant, algorithm):
    """N15: RS256 and ES256 tokens verify against a configured PEM public key."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048) if algorithm == "RS256" \
        else ec.generate_private_key(ec.SECP256R1())
    override_settings(jwt_public_key_pem=_pem_public(key))
    token = jwt.encode(_claims(tenant), _pem_private(key), algorithm=algorithm)
    response = probe_client.get("/v1/_probe", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048) if algorithm == "RS256" \
        else ec.generate_private_key(ec.SECP256R1())
    forged = jwt.encode(_claims(tenant), _pem_private(other), algorithm=algorithm)
    _assert_problem(probe_client.get("/v1/_probe", headers={"Authorization": f"Bearer {forged}"}), 401, "AUT-0007")


def test_rs256_token_with_jwks_url(probe_client, override_settings, tenant):
    """N15: a JWKS URL supplies the verification key, selected by `kid`."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    jwk.update({"kid": "k1", "use": "sig", "alg": "RS256"})
    with serve(lambda method, path, body: json_reply(200, {"keys": [jwk]})) as base:
        override_settings(jwt_jwks_url=f"{base}/jwks.json")
        token = jwt.encode(_claims(tenant), _pem_private(key), algorithm="RS256", headers={"kid": "k1"})
        response = probe_client.get("/v1/_probe", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text


def _decision_server(answer):
    def handler(method, path, body):
        request = json.loads(body)
        assert {"subject", "tenant", "resource", "action"} <= set(request)
        return answer(request)
    return serve(handler)


def test_decision_service_allows_and_denies(probe_client, override_settings, make_token):
    """N15: the decision service stands in for the permissions claim."""
    with _decision_server(lambda r: json_reply(200, {"allow": r["action"] == "get"})) as base:
        override_settings(decision_service_url=f"{base}/decide")
        token = make_token(permissions=[])
        assert probe_client.get("/v1/_probe", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    with _decision_server(lambda r: json_reply(200, {"allow": False})) as base:
        override_settings(decision_service_url=f"{base}/decide")
        token = make_token()
        _assert_problem(probe_client.get("/v1/_probe", headers={"Authorization": f"Bearer {token}"}), 403,
                        "AUT-1020")


def test_decision_service_undecided_is_aut_0033(probe_client, override_settings, make_token):
    """R-X-AUTH-04: the decision service did not decide → 503 AUT-0033 with Retry-After."""
    with _decision_server(lambda r: json_reply(500, {"error": "boom"})) as base:
        override_settings(decision_service_url=f"{base}/decide")
        response = probe_client.get("/v1/_probe", headers={"Authorization": f"Bearer {make_token()}"})
    _assert_problem(response, 503, "AUT-0033")
    assert int(response.headers["Retry-After"]) >= 1


def test_decision_service_timeout_is_aut_1021(probe_client, override_settings, make_token):
    """R-X-AUTH-04: the decision service did not answer in time → 504 AUT-1021."""
    def slow(request):
        time.sleep(1.0)
        return json_reply(200, {"allow": True})

    with _decision_server(slow) as base:
        override_settings(decision_service_url=f"{base}/decide", decision_service_timeout_seconds=0.2)
        response = probe_client.get("/v1/_probe", headers={"Authorization": f"Bearer {make_token()}"})
    _assert_problem(response, 504, "AUT-1021")


@pytest.fixture
def signature_checks(monkeypatch) -> list[str]:
    """The tokens whose signature PyJWT checked, in order."""
    checked: list[str] = []
    real = jwt.decode

    def counting(token, *args, **kwargs):
        checked.append(token)
        return real(token, *args, **kwargs)

    monkeypatch.setattr(jwt, "decode", counting)
    return checked


def test_a_verified_token_is_checked_once_and_its_claims_reused(make_token, tenant, signature_checks):
    """N61: the same token within `jwt_verified_cache_seconds` costs one signature check; what a caller
    does to its claims never reaches the next caller."""
    token = make_token()
    first = decode_token(token)
    first["tenant_id"] = "someone-else"
    assert decode_token(token)["tenant_id"] == tenant
    assert decode_token(make_token(subject="other"))["sub"] == "other"
    assert len(signature_checks) == 2


def test_a_reused_token_still_expires(override_settings, make_token):
    """N61: a remembered token is refused once its `exp` (plus the leeway) has passed."""
    override_settings(jwt_leeway_seconds=0)
    token = make_token(ttl_seconds=1)
    decode_token(token)
    time.sleep(max(0.0, jwt.decode(token, options={"verify_signature": False})["exp"] - time.time()) + 0.05)
    with pytest.raises(InvalidToken):
        decode_token(token)


def test_new_settings_check_every_token_afresh(override_settings, make_token):
    """N61: a rotated secret refuses a token that the old one verified a moment ago."""
    token = make_token()
    decode_token(token)
    override_settings(jwt_hs256_secret="another-secret-of-enough-length-000000")
    with pytest.raises(InvalidToken):
        decode_token(token)


def test_no_reuse_when_the_window_is_zero(override_settings, make_token, signature_checks):
    """N61: `jwt_verified_cache_seconds=0` checks the signature on every request."""
    override_settings(jwt_verified_cache_seconds=0)
    token = make_token()
    decode_token(token)
    decode_token(token)
    assert signature_checks == [token, token]
