"""compose.yaml: valid against the Compose Specification's schema (as check-jsonschema ships
it), every file it names exists, and the `cluster` profile hangs together: the load balancer
starts the whole cluster, the replicas believe forwarded headers from it alone, and the runners
get the seccomp profile."""

from __future__ import annotations

import ipaddress
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.deploy import manifests as m


def _check_schema(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec", path],
        capture_output=True,
        text=True,
        check=False,
    )


def test_compose_file_validates_against_compose_spec() -> None:
    result = _check_schema(m.COMPOSE)
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_schema_refuses_a_misspelt_key(tmp_path: Path) -> None:
    """(so the test above can fail)"""
    broken = tmp_path / "compose.yaml"
    broken.write_text(m.COMPOSE.read_text().replace("depends_on:", "depend_on:", 1))
    assert _check_schema(broken).returncode != 0


def _services() -> dict[str, dict[str, Any]]:
    services: dict[str, dict[str, Any]] = m.compose()["services"]
    return services


def _cluster() -> dict[str, dict[str, Any]]:
    return {n: s for n, s in _services().items() if "cluster" in s.get("profiles", [])}


def test_files_named_by_services_exist() -> None:
    seen = 0
    for name, service in _services().items():
        if "build" in service:
            assert (m.ROOT / service["build"] / "Dockerfile").is_file(), name
            seen += 1
        for option in service.get("security_opt", []):
            kind, _, value = option.partition("=")
            if kind == "seccomp":
                assert (m.ROOT / value).read_text() == m.SECCOMP.read_text(), name
                seen += 1
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith(("./", "/")):
                assert (m.ROOT / source).is_file(), (name, source)
                seen += 1
            else:
                assert source in m.compose()["volumes"], (name, source)
    assert seen >= 5


def test_default_service_stays_alone_without_a_profile() -> None:
    """`docker compose up` starts the single app, as before the cluster profile."""
    unprofiled = [n for n, s in _services().items() if not s.get("profiles")]
    assert unprofiled == ["backscope"]
    assert _services()["backscope"]["ports"] == ["127.0.0.1:8000:8000"]


def _closure(name: str) -> set[str]:
    seen = {name}
    todo = [name]
    while todo:
        for dep in _services()[todo.pop()].get("depends_on", {}):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def test_load_balancer_starts_the_whole_cluster() -> None:
    """`docker compose --profile cluster up lb` (README) starts every cluster service."""
    assert _closure("lb") == set(_cluster())
    assert [n for n, s in _cluster().items() if s.get("ports")] == ["lb"]


def test_cluster_has_replicas_a_runner_pool_and_postgres() -> None:
    cluster = _cluster()
    assert cluster["app"]["deploy"]["replicas"] >= 2
    assert cluster["runner"]["deploy"]["replicas"] >= 2
    assert cluster["db"]["image"].startswith("postgres:")
    assert "test" in cluster["db"]["healthcheck"]
    assert cluster["runner"]["command"] == ["backscope", "runner"]
    assert cluster["app"]["command"][:2] == ["backscope", "serve"]
    # the runners run pasted code: they get the profile bwrap needs and no capability, and
    # reach only the database
    (seccomp,) = m.compose()["services"]["backscope"]["security_opt"]
    assert seccomp in cluster["runner"]["security_opt"]
    assert "no-new-privileges:true" in cluster["runner"]["security_opt"]
    assert cluster["runner"]["cap_drop"] == ["ALL"]
    assert cluster["runner"]["networks"] == ["data"]


def test_replicas_trust_only_the_load_balancer() -> None:
    cluster = _cluster()
    (network,) = cluster["lb"]["networks"]
    address = ipaddress.ip_address(cluster["lb"]["networks"][network]["ipv4_address"])
    (subnet,) = m.compose()["networks"][network]["ipam"]["config"]
    assert address in ipaddress.ip_network(subnet["subnet"])
    trusted = cluster["app"]["environment"]["BACKSCOPE_TRUSTED_PROXIES"].split(",")
    assert [ipaddress.ip_address(t.strip()) for t in trusted] == [address]
    assert network in cluster["app"]["networks"]


def test_cluster_database_url_names_the_database_service() -> None:
    cluster = _cluster()
    (script,) = [s for s in cluster["app"]["entrypoint"] if "BACKSCOPE_DATABASE_URL" in s]
    host, port = re.search(r"postgresql://[^@]+@([\w-]+):(\d+)/", script).groups()
    assert host == "db" and port == "5432"
    assert cluster["runner"]["entrypoint"] == cluster["app"]["entrypoint"]
    for name in ("app", "runner"):
        assert set(cluster[name]["networks"]) & set(cluster["db"]["networks"]), name
