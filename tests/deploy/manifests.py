"""The deployment files as data: compose.yaml's services and deploy/k8s/'s resources (with the
Secret and ConfigMaps kustomize generates), for the tests beside this file."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
COMPOSE = ROOT / "compose.yaml"
NGINX_CONF = ROOT / "deploy" / "nginx" / "backscope.conf"
SECCOMP = ROOT / "deploy" / "seccomp-bwrap.json"

Resource = dict[str, Any]


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return data


def kustomization() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    return data


def manifest_files() -> list[Path]:
    """Every YAML file of deploy/k8s/ but the kustomization itself."""
    return sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


def file_resources(path: Path) -> list[Resource]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def _env_file(path: Path) -> dict[str, str]:
    pairs = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            pairs[key.strip()] = value.strip()
    return pairs


def generated() -> list[Resource]:
    """What kustomization.yaml's generators make: a Secret from secrets.env (its shape from
    secrets.env.example, which a deployer copies) and ConfigMaps from files."""
    kust = kustomization()
    out: list[Resource] = []
    for gen in kust.get("secretGenerator", []):
        data: dict[str, str] = {}
        for env in gen.get("envs", []):
            data.update(_env_file(K8S / (env + ".example")))
        out.append(
            {
                "apiVersion": "v1",
                "kind": "Secret",
                "metadata": {"name": gen["name"]},
                "type": "Opaque",
                "stringData": data,
            }
        )
    for gen in kust.get("configMapGenerator", []):
        data = {}
        for item in gen.get("files", []):
            key, _, source = item.rpartition("=")
            data[key or source] = (K8S / source).read_text()
        out.append(
            {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {"name": gen["name"]},
                "data": data,
            }
        )
    return out


@cache
def resources() -> list[Resource]:
    """Every resource `kubectl apply -k deploy/k8s` makes (read once: do not change them)."""
    listed = [r for name in kustomization()["resources"] for r in file_resources(K8S / name)]
    return listed + generated()


def named(kind: str) -> dict[str, Resource]:
    return {r["metadata"]["name"]: r for r in resources() if r["kind"] == kind}


def workloads() -> list[Resource]:
    return [r for r in resources() if r["kind"] in ("Deployment", "StatefulSet", "DaemonSet")]


def pod_containers(workload: Resource) -> list[dict[str, Any]]:
    spec = workload["spec"]["template"]["spec"]
    return [*spec.get("initContainers", []), *spec["containers"]]


def labels_match(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


def pods_selected(selector: dict[str, str]) -> list[Resource]:
    """The workloads whose pods a label selector picks."""
    return [
        w
        for w in workloads()
        if labels_match(selector, w["spec"]["template"]["metadata"]["labels"])
    ]


_SETTING = re.compile(r"\bBACKSCOPE_[A-Z0-9_]+\b")


def setting_names(text: str) -> set[str]:
    """The BACKSCOPE_* environment variables a deployment file sets or reads."""
    return set(_SETTING.findall(text))
