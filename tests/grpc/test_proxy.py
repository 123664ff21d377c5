"""Past one host: nginx terminates TLS on a loopback TCP port, checks the client's certificate, and
passes gRPC to the worker's Unix socket. The same grpcio client works through it, and a client
without a certificate of the right authority gets nothing from the worker."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

import grpc
import pytest

import faceworker
from faceworker.v1 import faceworker_pb2 as pb

from conftest import CALL_SECONDS, STUBS, RunningWorker, video_frames
from doors import LeanSession, SessionStream
from proxy import Identity, Nginx, client_identity, configuration, free_port, make_ca, server_identity
from same import assert_same_outcomes

pytestmark = pytest.mark.skipif(
    Nginx.executable() is None,
    reason="nginx is not installed; `make deps` installs Debian's nginx package, which this test needs")


@dataclass(frozen=True)
class Certificates:
    ca: Identity
    proxy: Identity
    client: Identity
    stranger: Identity
    """A client certificate from another authority."""


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    folder = tmp_path_factory.mktemp("tls")
    ca = make_ca(folder, "faceworker-test-ca")
    other = make_ca(folder, "some-other-ca")
    return Certificates(ca, server_identity(folder, ca), client_identity(folder, ca, "camera-host"),
                        client_identity(folder, other, "stranger"))


@pytest.fixture(scope="module")
def proxy(certificates: Certificates, worker: RunningWorker, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Nginx]:
    folder = tmp_path_factory.mktemp("nginx")
    port = free_port()
    nginx = Nginx(folder, configuration(folder, port, worker.grpc_path, certificates.proxy,
                                        certificates.ca.certificate), port)
    nginx.check()
    nginx.start()
    yield nginx
    nginx.stop()


def tls_channel(proxy: Nginx, certificates: Certificates, identity: Optional[Identity]) -> grpc.Channel:
    """A channel to the proxy that trusts the test CA and shows `identity`'s certificate, if any."""
    def read(path: Path) -> bytes:
        return path.read_bytes()

    credentials = grpc.ssl_channel_credentials(
        root_certificates=read(certificates.ca.certificate),
        private_key=read(identity.key) if identity else None,
        certificate_chain=read(identity.certificate) if identity else None,
    )
    return grpc.secure_channel(f"127.0.0.1:{proxy.port}", credentials)


@pytest.fixture
def remote(proxy: Nginx, certificates: Certificates) -> Iterator:
    """A stub on a TLS channel through the proxy, with the test CA's client certificate."""
    with tls_channel(proxy, certificates, certificates.client) as channel:
        yield STUBS.service_grpc.FaceWorkerStub(channel)


def sessions_now(worker: RunningWorker) -> int:
    return faceworker.get_stats(worker.socket_path).sessions


def test_a_session_through_nginx_gets_what_a_local_client_gets(remote, worker):
    options = pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO, tracking_enabled=True, output_face_mesh=True,
                                landmark_mode=pb.LANDMARK_MODE_ALL)
    frames = [pb.Frame(jpeg=jpeg, timestamp_ms=index * 33) for index, jpeg in enumerate(video_frames()[:8])]

    with SessionStream(remote) as stream, LeanSession(worker.socket_path, options) as lean:
        stream.open(options)
        through_proxy = [stream.process(frame) for frame in frames]
        through_lean = [lean.process(frame) for frame in frames]
        stream.half_close()
        assert stream.rest() == []
        assert stream.call.code() == grpc.StatusCode.OK

    assert_same_outcomes(through_proxy, through_lean)
    assert all(len(outcome.result.faces) == 1 for outcome in through_proxy)


def test_ping_and_stats_through_nginx(remote, worker):
    assert remote.Ping(pb.PingRequest(payload=b"over TLS"), timeout=CALL_SECONDS).payload == b"over TLS"
    assert remote.GetStats(pb.GetStatsRequest(), timeout=CALL_SECONDS).sessions == sessions_now(worker)


def test_a_stream_cancelled_through_nginx_frees_its_session(remote, worker):
    before = sessions_now(worker)
    with SessionStream(remote) as stream:
        stream.open(pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO))
        assert sessions_now(worker) == before + 1
        stream.call.cancel()

    deadline = time.monotonic() + 10
    while sessions_now(worker) != before:
        assert time.monotonic() < deadline, "nginx's upstream stream was left open"
        time.sleep(0.02)


# nginx answers a request without an acceptable certificate with HTTP 400 and an HTML page instead
# of passing it on, which grpcio reports as INTERNAL (in words that depend on which of nginx's
# frames it reads first); nginx's log says which check failed.
REFUSALS = {
    "no-certificate": "client sent no required SSL certificate",
    "another-authority": "client SSL certificate verify error",
}


@pytest.mark.parametrize("who", list(REFUSALS))
def test_a_client_without_a_certificate_of_the_ca_is_refused(proxy, certificates, worker, who):
    identity = None if who == "no-certificate" else certificates.stranger
    before = faceworker.get_stats(worker.socket_path)
    with tls_channel(proxy, certificates, identity) as channel:
        stub = STUBS.service_grpc.FaceWorkerStub(channel)
        with pytest.raises(grpc.RpcError) as pinged:
            stub.Ping(pb.PingRequest(payload=b"let me in"), timeout=CALL_SECONDS)
        with pytest.raises(grpc.RpcError) as opened, SessionStream(stub) as stream:
            stream.open()

    assert pinged.value.code() == opened.value.code() == grpc.StatusCode.INTERNAL
    assert REFUSALS[who] in proxy.log()
    assert faceworker.get_stats(worker.socket_path).sessions == before.sessions
