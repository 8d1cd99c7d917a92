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
from urllib.parse import urlsplit

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


def _as_run(value: str, keys: Path) -> str:
    """A script as the container runs it: compose turns `$$` into `$` and interpolates nothing
    else here (no `${...}` needing the deployer's environment); the volume's /keys is `keys`."""
    assert "${" not in value.replace("$${", "")
    return value.replace("$$", "$").replace("/keys", str(keys))


def _run(command: list[str]) -> str:
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def test_keys_are_made_once_and_reach_database_and_replicas(tmp_path: Path) -> None:
    """The `keys` service's command writes the password and the cookie key once; the cluster's
    entrypoint turns them into the URL PostgreSQL's settings expect and the shared key."""
    cluster = _cluster()
    python, flag, code = cluster["keys"]["command"]
    assert (python, flag) == ("python", "-c")
    make = [sys.executable, "-c", _as_run(code, tmp_path)]
    _run(make)
    first = {p.name: p.read_text() for p in tmp_path.iterdir()}
    assert set(first) == {"db_password", "secret_key"}
    assert all(re.fullmatch(r"[0-9a-f]{64}", v) for v in first.values())
    _run(make)  # a restart keeps them
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == first

    db_env = cluster["db"]["environment"]
    assert db_env["POSTGRES_PASSWORD_FILE"] == "/keys/db_password"
    shell, flag, script, name = cluster["app"]["entrypoint"]
    out = _run([shell, flag, _as_run(script, tmp_path), name, "env"])
    env = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    assert env["BACKSCOPE_SECRET_KEY"] == first["secret_key"]
    url = urlsplit(env["BACKSCOPE_DATABASE_URL"])
    assert (url.scheme, url.username, url.password) == (
        "postgresql",
        db_env["POSTGRES_USER"],
        first["db_password"],
    )
    assert (url.hostname, url.port, url.path) == ("db", 5432, "/" + db_env["POSTGRES_DB"])
