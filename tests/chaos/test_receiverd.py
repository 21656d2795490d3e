"""The chaos run's webhook receivers (chaos.receivers, chaos.receiverd): each an HTTPS server in a
process of its own, noting what it answered in the run's folder, and reset while its down flag is set."""

from __future__ import annotations

import ssl
from pathlib import Path

import httpx
import orjson
import pytest

from chaos.receivers import ORDERED_HOST, webhook_receivers


def _post(hooks, host: str, ce_id: str, key: str) -> httpx.Response:
    context = ssl.create_default_context(cafile=str(hooks.ca_bundle))
    port = hooks.ports[host]
    # The certificate names HOST; the connection goes to loopback with HOST as the TLS server name.
    transport = httpx.HTTPTransport(verify=context)
    with httpx.Client(transport=transport, timeout=5) as client:
        return client.post(f"https://127.0.0.1:{port}/hooks/x", content=orjson.dumps({"id": ce_id, "partitionkey": key}),
                           headers={"webhook-id": f"msg_{ce_id}", "Host": host},
                           extensions={"sni_hostname": host})


def test_a_steady_receiver_notes_every_answer_and_resets_while_down(tmp_path: Path) -> None:
    with webhook_receivers(seed=7, folder=tmp_path) as hooks:
        host = hooks.steady_hosts()[0]
        assert _post(hooks, host, "e1", "k1").status_code == 200
        hooks.set_down(host, True)
        with pytest.raises(httpx.TransportError):
            _post(hooks, host, "e2", "k1")
        hooks.set_down(host, False)
        assert _post(hooks, host, "e3", "k1").status_code == 200
        assert hooks.received() == {"msg_e1": 1, "msg_e3": 1}


def test_the_ordered_receiver_is_flaky_and_its_receipts_are_its_successes_in_order(tmp_path: Path) -> None:
    with webhook_receivers(seed=11, folder=tmp_path) as hooks:
        assert hooks.flaky[ORDERED_HOST] and ORDERED_HOST in hooks.fault_hosts()
        answers = []
        for n in range(40):
            try:
                answers.append((f"e{n}", _post(hooks, ORDERED_HOST, f"e{n}", f"k{n % 3}").status_code))
            except httpx.TransportError:
                answers.append((f"e{n}", None))  # a scripted reset
        ok = [ce_id for ce_id, status in answers if status == 200]
        assert 0 < len(ok) < 40  # flaky: some refused, most answered
        noted = [ce_id for _, ce_id in hooks.receipts.arrivals]
        # Every 200 is noted, in order; a slow answer (past the hub's timeout) is noted too.
        assert [ce_id for ce_id in noted if ce_id in ok] == ok
        assert hooks.receipts.arrivals[0][1] == noted[0] and all(key.startswith("k") for key, _ in hooks.receipts.arrivals)
