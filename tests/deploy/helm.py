"""The Helm chart under test: helm itself (built once into .local/bin by deploy/local/helm.sh), lint and
the rendered objects, each computed once per test session."""

from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
CHART = REPO / "deploy" / "helm" / "streaming-hub"
VALUES = {"small": REPO / "deploy" / "helm" / "values-small.yaml",
          "large": REPO / "deploy" / "helm" / "values-large.yaml"}
INSTALLER = REPO / "deploy" / "local" / "helm.sh"
RELEASE = "hub"


@lru_cache
def helm_binary() -> str:
    """The path of helm, built by deploy/local/helm.sh when missing (minutes once, then at once)."""
    done = subprocess.run(["bash", str(INSTALLER)], cwd=REPO, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, f"deploy/local/helm.sh failed:\n{done.stderr[-3000:]}"
    return done.stdout.strip().splitlines()[-1]


def helm(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([helm_binary(), *args], cwd=REPO, capture_output=True, text=True, timeout=120)


@lru_cache
def lint(size: str) -> subprocess.CompletedProcess:
    return helm("lint", "--strict", str(CHART), "-f", str(VALUES[size]))


def template(*args: str) -> list[dict]:
    """The objects `helm template` renders with ARGS (values files, --set ...)."""
    done = helm("template", RELEASE, str(CHART), *args)
    assert done.returncode == 0, done.stderr
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


@lru_cache
def rendered(size: str) -> tuple[dict, ...]:
    return tuple(template("-f", str(VALUES[size])))


def of_kind(objects: tuple[dict, ...] | list[dict], kind: str) -> list[dict]:
    return [obj for obj in objects if obj["kind"] == kind]


def component(obj: dict) -> str:
    return obj["metadata"]["labels"]["app.kubernetes.io/component"]


def container(obj: dict) -> dict:
    """The one container of a Deployment's or a Job's pod."""
    [only] = obj["spec"]["template"]["spec"]["containers"]
    return only


def env_of(obj: dict) -> dict[str, dict]:
    """The container's env entries by name."""
    return {entry["name"]: entry for entry in container(obj).get("env", [])}
