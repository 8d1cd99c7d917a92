"""deploy/k8s/: every resource validates against Kubernetes' own JSON schemas (strict: an
unknown or misspelt field fails), as kubernetes-validate ships them, and the resources fit
together (names, keys, labels, ports, the seccomp profile's path)."""

from __future__ import annotations

import json
import re

import kubernetes_validate
import pytest

from deploy.make_seccomp import text as seccomp_text
from server.routers.health import router as health_router
from server.sandbox.settings import SandboxSettings
from tests.deploy import manifests as m

# the oldest release these manifests promise to fit, and the newest the validator knows
VERSIONS = ["1.30", kubernetes_validate.latest_version()]


def _ids(resources: list[m.Resource]) -> list[str]:
    return [f"{r['kind']}/{r['metadata']['name']}" for r in resources]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("resource", m.resources(), ids=_ids(m.resources()))
def test_resource_validates_against_kubernetes_schema(resource: m.Resource, version: str) -> None:
    kubernetes_validate.validate(resource, version, strict=True)


def test_validator_refuses_a_misspelt_field() -> None:
    """The strict schemas catch what a typo makes (so the test above can fail)."""
    app = m.named("Deployment")["app"]
    broken = json.loads(json.dumps(app))
    broken["spec"]["template"]["spec"]["containers"][0]["readinessprobe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, VERSIONS[-1], strict=True)


def test_kustomization_lists_every_manifest() -> None:
    listed = set(m.kustomization()["resources"])
    assert listed == {p.name for p in m.manifest_files()}


def test_no_resource_names_its_own_namespace() -> None:
    """kustomization.yaml's `namespace` places everything; a manifest that names one would
    land elsewhere when a deployer changes it."""
    assert m.kustomization()["namespace"] == "backscope"
    for r in m.resources():
        if r["kind"] != "Namespace":
            assert "namespace" not in r["metadata"], r["metadata"]["name"]


def test_secret_and_config_references_exist() -> None:
    secrets = {n: r["stringData"] for n, r in m.named("Secret").items()}
    configs = {n: r["data"] for n, r in m.named("ConfigMap").items()}
    seen = 0
    for w in m.workloads():
        for c in m.pod_containers(w):
            for source in c.get("envFrom", []):
                assert source["configMapRef"]["name"] in configs
                seen += 1
            for env in c.get("env", []):
                ref = env.get("valueFrom", {})
                if "secretKeyRef" in ref:
                    assert ref["secretKeyRef"]["key"] in secrets[ref["secretKeyRef"]["name"]]
                    seen += 1
                if "configMapKeyRef" in ref:
                    assert ref["configMapKeyRef"]["key"] in configs[ref["configMapKeyRef"]["name"]]
                    seen += 1
        for volume in w["spec"]["template"]["spec"].get("volumes", []):
            if "configMap" in volume:
                assert volume["configMap"]["name"] in configs
                seen += 1
    assert seen >= 6


def test_env_references_come_before_their_use() -> None:
    """Kubernetes expands `$(NAME)` in a value only from variables defined above it."""
    for w in m.workloads():
        for c in m.pod_containers(w):
            defined = set()
            for env in c.get("env", []):
                for name in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", env.get("value", "")):
                    assert name in defined, (w["metadata"]["name"], env["name"], name)
                defined.add(env["name"])


def test_database_url_names_the_postgres_service() -> None:
    services = m.named("Service")
    for name in ("app", "runner"):
        (container,) = m.named("Deployment")[name]["spec"]["template"]["spec"]["containers"]
        env = {e["name"]: e for e in container["env"]}
        url = env["BACKSCOPE_DATABASE_URL"]["value"]
        host, port = re.fullmatch(r"postgresql://[^:]+:[^@]+@([^:/]+):(\d+)/\w+", url).groups()
        assert int(port) in [p["port"] for p in services[host]["spec"]["ports"]]
        assert m.pods_selected(services[host]["spec"]["selector"])


def test_services_select_pods_with_their_target_port() -> None:
    for name, service in m.named("Service").items():
        picked = m.pods_selected(service["spec"]["selector"])
        assert picked, name
        for port in service["spec"]["ports"]:
            for w in picked:
                ports = [p for c in m.pod_containers(w) for p in c.get("ports", [])]
                target = port["targetPort"]
                assert any(target in (p.get("name"), p["containerPort"]) for p in ports), name


def test_statefulset_has_its_headless_service() -> None:
    for s in m.named("StatefulSet").values():
        service = m.named("Service")[s["spec"]["serviceName"]]
        assert service["spec"]["clusterIP"] == "None"


def test_budgets_and_policies_select_pods() -> None:
    for kind in ("PodDisruptionBudget", "NetworkPolicy"):
        for name, r in m.named(kind).items():
            key = "selector" if kind == "PodDisruptionBudget" else "podSelector"
            assert m.pods_selected(r["spec"][key]["matchLabels"]), (kind, name)


def test_app_replicas_and_probes_on_the_health_route() -> None:
    app = m.named("Deployment")["app"]
    assert app["spec"]["replicas"] >= 2
    (container,) = app["spec"]["template"]["spec"]["containers"]
    routes = {r.path for r in health_router.routes}  # type: ignore[attr-defined]
    port_names = {p["name"] for p in container["ports"]}
    for probe in ("readinessProbe", "livenessProbe"):
        get = container[probe]["httpGet"]
        assert get["path"] in routes
        assert get["port"] in port_names
    assert "resources" in container and container["resources"]["limits"]


def test_every_container_has_requests_and_limits() -> None:
    for w in m.workloads():
        for c in m.pod_containers(w):
            res = c["resources"]
            assert set(res["requests"]) == set(res["limits"]) == {"cpu", "memory"}, c["name"]


def test_runner_gets_the_seccomp_profile_the_installer_puts_on_nodes() -> None:
    runner = m.named("Deployment")["runner"]
    (container,) = runner["spec"]["template"]["spec"]["containers"]
    profile = container["securityContext"]["seccompProfile"]
    assert profile["type"] == "Localhost"
    installer = m.named("DaemonSet")["seccomp-installer"]["spec"]["template"]["spec"]
    volumes = {v["name"]: v for v in installer["volumes"]}
    (install,) = installer["initContainers"]
    mounts = {v["mountPath"]: volumes[v["name"]] for v in install["volumeMounts"]}
    kubelet_root = "/var/lib/kubelet/seccomp"  # the kubelet's --seccomp root (its default)
    host_dir = next(
        p for p, v in mounts.items() if v.get("hostPath", {}).get("path") == kubelet_root
    )
    config_dir, config = next((p, v) for p, v in mounts.items() if "configMap" in v)
    folder, _, key = profile["localhostProfile"].rpartition("/")
    script = install["command"][-1]
    assert f"cp {config_dir}/{key} {host_dir}/{folder}/" in script
    data = m.named("ConfigMap")[config["configMap"]["name"]]["data"]
    assert data[key] == seccomp_text() == m.SECCOMP.read_text()


def test_runner_holds_no_privilege_bwrap_does_not_need() -> None:
    """bubblewrap makes its namespaces as an unprivileged user: no capability added, none
    kept, no escalation, not privileged, not root."""
    spec = m.named("Deployment")["runner"]["spec"]["template"]["spec"]
    assert spec["securityContext"]["runAsNonRoot"] is True
    assert spec["automountServiceAccountToken"] is False
    (container,) = spec["containers"]
    security = container["securityContext"]
    assert security["capabilities"] == {"drop": ["ALL"]}
    assert security["allowPrivilegeEscalation"] is False
    assert not security.get("privileged", False)


def test_ingress_keeps_websockets_on_one_replica_through_a_pause() -> None:
    (ingress,) = m.named("Ingress").values()
    notes = ingress["metadata"]["annotations"]
    prefix = "nginx.ingress.kubernetes.io/"
    assert notes[prefix + "affinity"] == "cookie"
    pause = SandboxSettings().pause_seconds
    for timeout in ("proxy-read-timeout", "proxy-send-timeout"):
        assert float(notes[prefix + timeout]) > pause
    (rule,) = ingress["spec"]["rules"]
    backend = rule["http"]["paths"][0]["backend"]["service"]
    service = m.named("Service")[backend["name"]]
    assert backend["port"]["name"] in [p["name"] for p in service["spec"]["ports"]]
    config = m.named("ConfigMap")["backscope-config"]["data"]
    assert rule["host"] in config["BACKSCOPE_ALLOWED_HOSTS"].replace(",", " ").split()


def test_images_are_ours_or_pinned() -> None:
    for w in m.workloads():
        for c in m.pod_containers(w):
            image = c["image"]
            assert image == "backscope" or re.fullmatch(r"[\w./-]+:[\w.-]+", image), image
    assert [i["name"] for i in m.kustomization()["images"]] == ["backscope"]
