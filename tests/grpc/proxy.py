"""nginx from Debian in front of the worker's gRPC socket, as README's "Beyond one host" sets it up:
TLS on a loopback port, client certificates checked against a CA, `grpc_pass` to the Unix socket.

Everything lives in one folder: the certificates (made with the openssl command), the
configuration, nginx's pid file, logs and temporary files. nginx runs in the foreground as this
user, on a port nobody else holds, and needs no privilege.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

STARTUP_SECONDS = 30


@dataclass(frozen=True)
class Identity:
    """A key and the certificate that names it, as PEM files."""

    key: Path
    certificate: Path


def openssl(*arguments: str, folder: Path) -> None:
    done = subprocess.run(["openssl", *arguments], cwd=folder, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"openssl {' '.join(arguments)} failed:\n{done.stderr}")


def make_ca(folder: Path, name: str) -> Identity:
    """A self-signed certificate authority."""
    identity = Identity(folder / f"{name}.key", folder / f"{name}.crt")
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", str(identity.key), "-out", str(identity.certificate), "-days", "2",
            "-subj", f"/CN={name}", folder=folder)
    return identity


def issue(folder: Path, ca: Identity, name: str, extensions: str) -> Identity:
    """A key and a certificate for it signed by `ca`, with the given X.509 v3 extensions."""
    identity = Identity(folder / f"{name}.key", folder / f"{name}.crt")
    request, extension_file = folder / f"{name}.csr", folder / f"{name}.ext"
    extension_file.write_text(extensions)
    openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", str(identity.key), "-out", str(request), "-subj", f"/CN={name}", folder=folder)
    openssl("x509", "-req", "-in", str(request), "-CA", str(ca.certificate), "-CAkey", str(ca.key),
            "-CAcreateserial", "-out", str(identity.certificate), "-days", "2", "-extfile", str(extension_file),
            folder=folder)
    return identity


def server_identity(folder: Path, ca: Identity) -> Identity:
    """The proxy's certificate: for 127.0.0.1 and localhost."""
    return issue(folder, ca, "proxy", "subjectAltName = IP:127.0.0.1, DNS:localhost\n"
                                      "extendedKeyUsage = serverAuth\n")


def client_identity(folder: Path, ca: Identity, name: str) -> Identity:
    """A client's certificate."""
    return issue(folder, ca, name, "extendedKeyUsage = clientAuth\n")


def free_port() -> int:
    """A loopback TCP port nobody listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def configuration(folder: Path, port: int, grpc_socket: str, server: Identity, client_ca: Path) -> str:
    """nginx.conf: the server block is README's; the rest keeps nginx inside `folder`."""
    # Run as root, nginx would hand its connections to workers running as nobody, who may not
    # open the worker's socket (mode 0600, and the worker admits only its own user).
    user = "user root;\n" if os.geteuid() == 0 else ""
    return f"""{user}worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log info;
events {{ worker_connections 64; }}

http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;

    server {{
        listen 127.0.0.1:{port} ssl http2;

        ssl_certificate     {server.certificate};
        ssl_certificate_key {server.key};
        ssl_client_certificate {client_ca};
        ssl_verify_client on;

        # A session is one long call: no size limit on its stream of frames, and no timeout
        # while a camera is quiet or a subscriber waits.
        client_max_body_size 0;
        grpc_read_timeout 1d;
        grpc_send_timeout 1d;

        location /faceworker.v1.FaceWorker/ {{
            grpc_pass unix:{grpc_socket};
        }}
    }}
}}
"""


class Nginx:
    """nginx in the foreground with a configuration of its own; stopped with SIGQUIT (graceful)."""

    def __init__(self, folder: Path, config: str, port: int) -> None:
        self.folder, self.port = folder, port
        self.config_path = folder / "nginx.conf"
        self.config_path.write_text(config)
        self.process: Optional[subprocess.Popen] = None

    @staticmethod
    def executable() -> Optional[str]:
        """nginx's path, where Debian's package puts it, or on PATH."""
        return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")

    def command(self, *options: str) -> list:
        # -e: the log nginx writes before it has read the configuration (its built-in one is
        # under /var/log, which this user may not open).
        return [self.executable(), "-p", str(self.folder), "-c", str(self.config_path),
                "-e", str(self.folder / "startup.log"), *options]

    def check(self) -> None:
        """`nginx -t` on the configuration: raises with nginx's words if it is refused."""
        done = subprocess.run(self.command("-t"), capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"nginx -t refused the configuration:\n{done.stderr}")

    def start(self) -> None:
        self.process = subprocess.Popen(self.command("-g", "daemon off;"), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited with status {self.process.returncode}:\n"
                                   f"{self.process.stderr.read()}\n{self.log()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"nginx did not listen on port {self.port} within {STARTUP_SECONDS} s")
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""
