"""A private nginx running the production site (deploy/nginx/marker.conf, its lines marked
"rehearse:" replaced) on ports of 127.0.0.1, and waiting for a process's port: shared by
deploy/rehearse.py and bench/league_night.py (neither imports the other for these)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

SITE = Path(__file__).resolve().parent / "nginx" / "marker.conf"


def log(message: str) -> None:
    print(f"[rehearse {time.strftime('%H:%M:%S')}] {message}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, process: subprocess.Popen, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if process.poll() is not None:
                raise SystemExit(f"{what} exited ({process.returncode})") from None
            time.sleep(0.1)
    raise SystemExit(f"{what} did not open port {port}")


def find_nginx() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found:
        return found
    if os.geteuid() == 0:
        log("nginx is missing: apt-get install -y nginx")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "install", "-y", "-q", "nginx"], check=False, env=env)
        if not Path("/usr/sbin/nginx").exists():
            subprocess.run(["apt-get", "update", "-q"], check=True, env=env)
            subprocess.run(["apt-get", "install", "-y", "-q", "nginx"], check=True, env=env)
        # Debian starts the system service on install: this rehearsal uses its own.
        subprocess.run(["systemctl", "disable", "--now", "nginx"], check=False, capture_output=True)
        return "/usr/sbin/nginx"
    raise SystemExit("nginx is missing: apt-get install nginx (Debian's package)")


def site_config(replacements: dict[str, str | Callable[[str], str]]) -> str:
    """deploy/nginx/marker.conf with each line marked `# rehearse: KEY` replaced: by a
    string, or by what a function makes of the line's own directive."""
    out, seen = [], set()
    for line in SITE.read_text().splitlines():
        if "# rehearse: " in line:
            directive, _, key = line.partition("# rehearse: ")
            key = key.strip()
            if key not in replacements:
                raise SystemExit(f"{SITE}: no rehearsal value for {key!r}")
            indent = line[: len(line) - len(line.lstrip())]
            value = replacements[key]
            if callable(value):
                value = value(directive.strip())
            out.append(f"{indent}{value}  # rehearsed: {key}" if value else f"{indent}# ({key})")
            seen.add(key)
        else:
            out.append(line)
    missing = set(replacements) - seen
    if missing:
        raise SystemExit(f"{SITE} lost its rehearse: lines for {sorted(missing)}")
    return "\n".join(out) + "\n"


def main_config(prefix: Path, site: Path) -> str:
    return f"""worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    access_log off;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {site};
}}
"""


def nginx_site(
    nginx: str, workdir: Path, app_ports: list[int], https_port: int, http_port: int
) -> list[str]:
    """A private nginx in `workdir` running deploy/nginx/marker.conf (its "rehearse:" lines
    replaced) in front of the app servers on `app_ports` (one or more), with a self-signed
    certificate; checked with `nginx -t`. Returns the command that runs it in the
    foreground (add `-g "daemon off;"`). Static files are served from `workdir/static`."""
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", "/CN=127.0.0.1", "-keyout", str(workdir / "privkey.pem"),
            "-out", str(workdir / "fullchain.pem"),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    upstream = [f"server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;" for port in app_ports]
    site = site_config(
        {
            # The production cache's own settings, in the work directory.
            "cache": lambda line: f"proxy_cache_path {workdir}/live-cache {line.split(None, 2)[2]}",
            "app1": upstream[0],
            "app2": " ".join(upstream[1:]),  # the second app server and any after it
            "http": f"listen 127.0.0.1:{http_port};",
            "http6": "",
            "https": f"listen 127.0.0.1:{https_port} ssl http2;",
            "https6": "",
            "name": "server_name 127.0.0.1 localhost;",
            "cert": f"ssl_certificate {workdir}/fullchain.pem;",
            "key": f"ssl_certificate_key {workdir}/privkey.pem;",
            "static": f"alias {workdir}/static/;",
        }
    )
    (workdir / "site.conf").write_text(site)
    (workdir / "nginx.conf").write_text(main_config(workdir, workdir / "site.conf"))
    for sub in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi", "live-cache"):
        (workdir / sub).mkdir(exist_ok=True)
    command = [nginx, "-p", str(workdir), "-c", str(workdir / "nginx.conf"), "-e", str(workdir / "error.log")]  # fmt: skip
    subprocess.run([*command, "-t", "-q"], check=True)
    return command
