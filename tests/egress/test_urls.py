"""URL rules for webhook endpoints and AWS/SQS URLs: https only, a host, no userinfo, default port 443."""

from __future__ import annotations

import ipaddress

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from hub.egress import (
    DnsTimeout,
    DnsUnavailable,
    EndpointBlocked,
    InvalidDestination,
    check_host,
    check_https_url,
    check_webhook_url,
)
from hub.problems import install_problem_handlers

SECRET = "s3cr3t-Passw0rd"


@pytest.mark.parametrize("url", [
    "http://93.184.216.34/hook", "ftp://93.184.216.34/", "93.184.216.34/hook", "//93.184.216.34/x",
    "https://", "https:///path", "https://:443/", "", "javascript:alert(1)", "HTTP://93.184.216.34/",
    "https://93.184.216.34:0/", "https://93.184.216.34:99999/", "https://93.184.216.34 /",
    "https://93.184.216.34\\@10.0.0.1/", "https://93.184.216.34/\r\nHost: x", "https://[::1/",
    "https://[fe80::1%25eth0]/", "https://exa mple.com/", "https://bad..name/",
    "https://" + "a" * 64 + ".example/",
])
def test_malformed_or_non_https_urls_are_invalid(url: str) -> None:
    with pytest.raises(InvalidDestination) as caught:
        check_webhook_url(url)
    assert caught.value.status == 422 and caught.value.code == "validation_error"


@pytest.mark.parametrize("url", [
    f"https://user:{SECRET}@93.184.216.34/hook", f"https://{SECRET}@93.184.216.34/", "https://@93.184.216.34/",
    f"https://u:{SECRET}@[2606:4700::1111]:8443/",
])
def test_userinfo_is_refused_and_never_echoed(url: str) -> None:
    with pytest.raises(InvalidDestination) as caught:
        check_https_url(url)
    assert SECRET not in caught.value.detail and "93.184" not in caught.value.detail


def test_port_defaults_to_443_and_explicit_ports_are_kept() -> None:
    assert check_webhook_url("https://93.184.216.34/x").port == 443
    assert check_webhook_url("https://93.184.216.34:443/x").port == 443
    destination = check_webhook_url("https://[2606:4700::1111]:8443/x?y=1#z")
    assert destination == check_host("2606:4700::1111", 8443)
    assert destination.addresses == (ipaddress.IPv6Address("2606:4700::1111"),)


@pytest.mark.parametrize("url", [
    "https://127.0.0.1/", "https://2130706433/", "https://0177.0.0.1/", "https://0x7f.1/", "https://127.1/",
    "https://[::1]/", "https://[::ffff:127.0.0.1]/", "https://[::ffff:a9fe:a9fe]/", "https://169.254.169.254/",
    "https://[fd00:ec2::254]/", "https://localhost/", "https://LOCALHOST./", "https://api.localhost/",
    "https://10.0.0.1:8443/", "https://[64:ff9b::7f00:1]/", "https://[2002:7f00:1::]/", "https://1.2.3.4.5/",
    "https://%31%32%37.0.0.1/",
])
def test_blocked_literal_hosts_in_urls_R_createSubscription_13(url: str) -> None:
    """R-createSubscription-13: a webhook URL naming a blocked address is refused without any DNS lookup."""
    with pytest.raises((EndpointBlocked, InvalidDestination)) as caught:
        check_webhook_url(url)
    assert caught.value.status == 422
    if "%" not in url:
        assert caught.value.code == "endpoint_blocked"


@pytest.mark.parametrize("host,port", [("", 443), ("93.184.216.34", 0), ("93.184.216.34", 70000),
                                       ("user@93.184.216.34", 5671), ("93.184.216.34/x", 5671),
                                       ("[::1", 5671), ("93.184.216.34", True)])
def test_check_host_rejects_malformed_input(host: str, port: int) -> None:
    with pytest.raises(InvalidDestination):
        check_host(host, port)


def _app() -> TestClient:
    app = FastAPI()
    install_problem_handlers(app)
    errors = {"blocked": EndpointBlocked(), "dns": DnsUnavailable(), "timeout": DnsTimeout(),
              "invalid": InvalidDestination()}

    @app.get("/raise/{name}")
    def raise_error(name: str) -> None:
        raise errors[name]

    return TestClient(app, raise_server_exceptions=False)


@pytest.mark.parametrize("name,status,code", [("blocked", 422, "endpoint_blocked"), ("dns", 503, "dns_unavailable"),
                                              ("timeout", 504, "dns_timeout"), ("invalid", 422, "validation_error")])
def test_errors_render_as_problems_R_createSubscription_32(name: str, status: int, code: str) -> None:
    """R-createSubscription-32: the 503 dns_unavailable carries Retry-After >= 1; the 504 declares none."""
    response = _app().get(f"/raise/{name}")
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == code
    if code == "dns_unavailable":
        assert int(response.headers["retry-after"]) >= 1
    else:
        assert "retry-after" not in response.headers
