"""deploy/nginx/backscope.conf, the cluster's load balancer: Debian's nginx accepts it
(`nginx -t`, the upstream names resolved as compose's network would, through an /etc/hosts of
the compose services bound in by bubblewrap), websockets pass and outlive a pause, and the
sticky key is the app's own owner cookie."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from server.sandbox.settings import SandboxSettings
from server.trust.identity import COOKIE
from tests.deploy import manifests as m

CONF = m.NGINX_CONF.read_text()


def _nginx() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
    assert found, "Debian's nginx is needed (tools/system-deps.sh installs it)"
    return found


def _nginx_t(tmp_path: Path, conf: str) -> subprocess.CompletedProcess[str]:
    """`nginx -t` on `conf` in an http block, with compose's service names resolvable."""
    site = tmp_path / "backscope.conf"
    site.write_text(conf)
    main = tmp_path / "nginx.conf"
    main.write_text(f"pid {tmp_path}/nginx.pid;\nevents {{}}\nhttp {{\n  include {site};\n}}\n")
    hosts = tmp_path / "hosts"
    names = sorted(m.compose()["services"])
    hosts.write_text(
        "127.0.0.1 localhost\n"
        + "".join(f"10.99.0.{i} {name}\n" for i, name in enumerate(names, 1))
    )
    bwrap = shutil.which("bwrap")
    assert bwrap, "bubblewrap is needed (tools/system-deps.sh installs it)"
    command = [bwrap, "--dev-bind", "/", "/", "--ro-bind", str(hosts), "/etc/hosts"]
    command += [_nginx(), "-t", "-e", "stderr", "-p", str(tmp_path), "-c", str(main)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_nginx_accepts_the_config(tmp_path: Path) -> None:
    result = _nginx_t(tmp_path, CONF)
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_nginx_check_refuses_a_broken_config(tmp_path: Path) -> None:
    """(so the test above can fail: an unknown directive, and an upstream compose lacks)"""
    assert _nginx_t(tmp_path, CONF.replace("proxy_read_timeout", "proxy_raed_timeout")).returncode
    assert _nginx_t(tmp_path, CONF.replace("server app:", "server nowhere:")).returncode


def _directives(name: str) -> list[str]:
    return re.findall(rf"^\s*{name}\s+([^;{{}}]+);", CONF, flags=re.MULTILINE)


def test_upstream_is_the_app_service_on_its_port() -> None:
    app = m.compose()["services"]["app"]
    port = app["command"][app["command"].index("--port") + 1]
    (server,) = _directives("server")
    assert server.split()[0] == f"app:{port}"


def test_websockets_pass_and_outlive_a_pause() -> None:
    assert _directives("proxy_http_version") == ["1.1"]
    headers = dict(h.split(None, 1) for h in _directives("proxy_set_header"))
    assert headers["Upgrade"] == "$http_upgrade"
    assert headers["Connection"] == "$connection_upgrade"
    assert headers["Host"] == "$http_host"  # with its port: the app compares Origin with it
    assert headers["X-Forwarded-For"] == "$proxy_add_x_forwarded_for"
    pause = SandboxSettings().pause_seconds
    for name in ("proxy_read_timeout", "proxy_send_timeout"):
        (value,) = _directives(name)
        assert value.endswith("s") and float(value[:-1]) > pause


def test_sticky_key_is_the_owner_cookie() -> None:
    (hash_,) = _directives("hash")
    # (not `consistent`: nginx's ring is by server name, and the replicas share `app`)
    (variable,) = hash_.split()
    mapped = re.search(rf"map \$cookie_(\w+) {re.escape(variable)} \{{", CONF)
    assert mapped and mapped.group(1) == COOKIE
