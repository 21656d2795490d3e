"""deploy/helm/streaming-hub: `helm lint --strict` clean, and the objects it renders for the small and the large
values file are what a cluster needs: every process a Deployment with its settings, probes on what the process
serves, resources and a PodDisruptionBudget; migrations a pre-install/pre-upgrade hook; secrets only from
existing Secrets; autoscaling on metrics the workers export."""

from __future__ import annotations

import re
import shutil

import pytest
import yaml
from prometheus_client.metrics import MetricWrapperBase

from hub import metrics
from tests.deploy.helm import (
    CHART, VALUES, component, container, env_of, helm, lint, of_kind, rendered, template,
)
from tests.deploy.process_settings import NEEDS, SECRET

SIZES = sorted(VALUES)
PROCESSES = ["api", "grpc", "ingest", "deliver", "dlq-observer", "consumer-relay", "sweep"]
EXPORTED = {wrapper._name for wrapper in vars(metrics).values() if isinstance(wrapper, MetricWrapperBase)}

# Each worker's own metrics settings (prefix of _HOST and _PORT).
METRICS_SETTING = {"ingest": "HUB_INGEST_METRICS", "deliver": "HUB_DELIVER_METRICS",
                   "dlq-observer": "HUB_DLQ_OBSERVER_METRICS", "consumer-relay": "HUB_CONSUMER_RELAY_METRICS"}


@pytest.fixture(scope="module", autouse=True)
def migrated_database() -> None:
    """These tests read files and run helm: no database (the suite's own fixture migrates one)."""


@pytest.mark.parametrize("size", SIZES)
def test_chart_lints_strict(size):
    done = lint(size)
    assert done.returncode == 0, done.stdout + done.stderr


def test_lint_can_fail(tmp_path):
    """A copy of the chart whose Job renders misindented YAML fails the lint (the check above can fail)."""
    broken = tmp_path / "streaming-hub"
    shutil.copytree(CHART, broken)
    job = broken / "templates" / "migrate-job.yaml"
    job.write_text(job.read_text().replace('"hub.commonEnv" . | nindent 12', '"hub.commonEnv" . | nindent 9'))
    assert helm("lint", "--strict", str(broken)).returncode != 0


@pytest.mark.parametrize("size", SIZES)
def test_every_process_is_a_deployment_with_its_settings(size):
    deployments = {component(obj): obj for obj in of_kind(rendered(size), "Deployment")}
    assert sorted(deployments) == sorted(PROCESSES)
    for name, obj in deployments.items():
        env = env_of(obj)
        assert NEEDS[name] <= set(env), f"{name} lacks {NEEDS[name] - set(env)}"
        assert container(obj)["args"][0] == name


@pytest.mark.parametrize("size", SIZES)
def test_every_deployment_has_resources(size):
    for obj in of_kind(rendered(size), "Deployment"):
        resources = container(obj)["resources"]
        for part in ("requests", "limits"):
            assert {"cpu", "memory"} <= set(resources.get(part, {})), f"{component(obj)}: {part}"


@pytest.mark.parametrize("size", SIZES)
def test_every_deployment_probes_what_its_process_serves(size):
    """The API: /healthz and /readyz; gRPC: its health service; the workers: their loop's heartbeat (/livez,
    N94) and /metrics, on the port their settings open (they serve nothing else); sweep: /metrics."""
    for obj in of_kind(rendered(size), "Deployment"):
        name, box, env = component(obj), container(obj), env_of(obj)
        live, ready = box["livenessProbe"], box["readinessProbe"]
        ports = {port["name"]: port["containerPort"] for port in box["ports"]}
        if name == "api":
            assert (live["httpGet"]["path"], ready["httpGet"]["path"]) == ("/healthz", "/readyz")
            assert ports[live["httpGet"]["port"]] == int(env["HUB_API_PORT"]["value"])
        elif name == "grpc":
            assert live["grpc"]["port"] == ready["grpc"]["port"] == int(env["HUB_GRPC_PORT"]["value"])
        else:
            assert live["httpGet"]["path"] == ("/metrics" if name == "sweep" else "/livez")
            assert ready["httpGet"]["path"] == "/metrics" and live["httpGet"]["port"] == ready["httpGet"]["port"]
            port = ports[live["httpGet"]["port"]]
            if name == "sweep":
                assert box["args"][-2:] == ["--metrics-port", str(port)]
            else:
                assert int(env[f"{METRICS_SETTING[name]}_PORT"]["value"]) == port
            host = "HUB_INGEST_METRICS" if name == "sweep" else METRICS_SETTING[name]
            assert env[f"{host}_HOST"]["value"] == "0.0.0.0"


@pytest.mark.parametrize("size", SIZES)
def test_every_deployment_has_a_disruption_budget(size):
    objects = rendered(size)
    budgets = {component(obj): obj for obj in of_kind(objects, "PodDisruptionBudget")}
    for obj in of_kind(objects, "Deployment"):
        assert budgets[component(obj)]["spec"]["selector"] == obj["spec"]["selector"]


@pytest.mark.parametrize("size", SIZES)
def test_migrations_are_a_pre_install_and_pre_upgrade_hook(size):
    [job] = of_kind(rendered(size), "Job")
    hooks = set(job["metadata"]["annotations"]["helm.sh/hook"].split(","))
    assert {"pre-install", "pre-upgrade"} <= hooks
    assert container(job)["args"] == ["migrate"]
    assert NEEDS["migrate"] <= set(env_of(job))


@pytest.mark.parametrize("size", SIZES)
def test_secret_settings_come_only_from_existing_secrets(size):
    objects = rendered(size)
    assert not of_kind(objects, "Secret"), "the chart never creates a Secret"
    for obj in of_kind(objects, "Deployment") + of_kind(objects, "Job"):
        for name, entry in env_of(obj).items():
            if name in SECRET:
                assert "value" not in entry and entry["valueFrom"]["secretKeyRef"]["name"], (component(obj), name)


def _strings(node: object):
    if isinstance(node, dict):
        for key, value in node.items():
            yield str(key)
            yield from _strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item)
    elif node is not None:
        yield str(node)


@pytest.mark.parametrize("path", [CHART / "values.yaml", *VALUES.values()], ids=lambda p: p.name)
def test_no_secret_value_in_clear_in_the_values(path):
    text = path.read_text()
    found = list(_strings(yaml.safe_load(text)))
    assert not [s for s in found if s in SECRET], "a secret setting named in values: use the existing Secret"
    assert not [s for s in found if re.search(r"://[^/@\s]+:[^/@\s]*@", s)], "a URL with a password"
    assert not [s for s in found if re.search(r"[A-Za-z0-9+/]{40,}={0,2}", s)], "a key-like value"


@pytest.mark.parametrize("name", sorted(SECRET))
def test_chart_refuses_a_secret_setting_in_env(name):
    assert helm("template", "t", str(CHART), "--set", f"env.{name}=x").returncode != 0


def test_autoscaling_on_the_workers_metrics():
    """Large: ingest on consumer lag, deliver on job backlog, both metrics the workers export; the scaled
    Deployments leave their replica count to the autoscaler. Small: no autoscaling."""
    assert not of_kind(rendered("small"), "HorizontalPodAutoscaler")
    objects = rendered("large")
    scalers = {obj["spec"]["scaleTargetRef"]["name"]: obj for obj in of_kind(objects, "HorizontalPodAutoscaler")}
    deployments = {component(obj): obj for obj in of_kind(objects, "Deployment")}
    expected = {"ingest": "streaming_hub_consumer_lag", "deliver": "streaming_hub_delivery_backlog"}
    assert len(scalers) == len(expected)
    for name, metric in expected.items():
        deployment = deployments[name]
        scaler = scalers[deployment["metadata"]["name"]]
        assert scaler["apiVersion"] == "autoscaling/v2"
        [spec] = scaler["spec"]["metrics"]
        assert spec["type"] == "External" and spec["external"]["metric"]["name"] == metric
        assert metric in EXPORTED
        assert "replicas" not in deployment["spec"]


def test_grpc_can_be_left_out():
    objects = template("--set", "grpc.enabled=false")
    assert "grpc" not in {component(obj) for obj in objects}


def test_opentelemetry_variables_reach_every_process():
    """`opentelemetry.env` passes OTEL_* variables as they are; the OTLP headers come only from a Secret (N71)."""
    objects = template("--set", "opentelemetry.env.OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318",
                       "--set", "opentelemetry.env.OTEL_TRACES_SAMPLER_ARG=0.05",
                       "--set", "opentelemetry.headersSecret.name=otlp", "--set", "opentelemetry.headersSecret.key=h")
    for obj in of_kind(objects, "Deployment"):
        env = env_of(obj)
        assert env["OTEL_EXPORTER_OTLP_ENDPOINT"]["value"] == "http://collector:4318", component(obj)
        assert env["OTEL_TRACES_SAMPLER_ARG"]["value"] == "0.05"
        assert env["OTEL_EXPORTER_OTLP_HEADERS"]["valueFrom"]["secretKeyRef"] == {"name": "otlp", "key": "h"}
    assert not any(name.startswith("OTEL_") for obj in of_kind(rendered("small"), "Deployment")
                   for name in env_of(obj)), "nothing by default: tracing stays off"


@pytest.mark.parametrize("name", ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS", "HUB_LOG_LEVEL"])
def test_opentelemetry_env_refuses_headers_and_other_names(name):
    assert helm("template", "t", str(CHART), "--set", f"opentelemetry.env.{name}=x").returncode != 0


@pytest.mark.parametrize("where", ["env", "deliver.env", "api.env"])
@pytest.mark.parametrize("name", ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"])
def test_otlp_headers_never_render_in_plain_text(where, name):
    """Only opentelemetry.headersSecret may set them (issue 50): `--set env.OTEL_EXPORTER_OTLP_HEADERS=…` fails."""
    done = helm("template", "t", str(CHART), "--set", f"{where}.{name}=authorization=Bearer x")
    assert done.returncode != 0 and "headersSecret" in done.stderr


def test_the_service_monitor_scrapes_every_process_as_its_job():
    """Off by default; on, a headless Service per scraped process and one ServiceMonitor naming each job
    `streaming-hub-<process>`, the names the alerting rules read (N95)."""
    assert not of_kind(rendered("small"), "ServiceMonitor")
    objects = template("--set", "observability.serviceMonitor.enabled=true",
                       "--set", "observability.serviceMonitor.labels.release=kps")
    [monitor] = of_kind(objects, "ServiceMonitor")
    assert monitor["metadata"]["labels"]["release"] == "kps"
    selected = [svc for svc in of_kind(objects, "Service")
                if all(svc["metadata"]["labels"].get(k) == v for k, v in monitor["spec"]["selector"]["matchLabels"].items())]
    deployments = {component(obj): obj for obj in of_kind(objects, "Deployment")}
    assert {component(svc) for svc in selected} == set(deployments) - {"grpc"}  # gRPC serves no /metrics
    for svc in selected:
        box = container(deployments[component(svc)])
        [port] = svc["spec"]["ports"]
        assert port["name"] == "metrics" and port["targetPort"] in {p["name"] for p in box["ports"]}
        assert svc["spec"]["selector"] == deployments[component(svc)]["spec"]["selector"]["matchLabels"]
    [endpoint] = monitor["spec"]["endpoints"]
    assert endpoint["port"] == "metrics" and endpoint["path"] == "/metrics"
    [relabel] = endpoint["relabelings"]
    assert relabel == {"sourceLabels": ["__meta_kubernetes_service_label_app_kubernetes_io_component"],
                       "targetLabel": "job", "replacement": "streaming-hub-$1"}
