"""Registering a shared-memory buffer on a connection: RegisterBuffer, then the descriptor's handoff.

A descriptor can only travel as SCM_RIGHTS ancillary data, which the
worker's framed socket does not carry, so the worker answers RegisterBuffer
with a token and the address of a handoff socket. The client connects there,
sends the token with the memfd in one sendmsg, reads one framed
WorkerMessage (``buffer_registered`` or an error) and hangs up.
"""

from __future__ import annotations

import socket


from ._connection import _HEADER, Connection, read_framed
from ._proto import faceworker_pb2 as pb
from .errors import FaceWorkerError, ProtocolError, StatusCode


def register(connection: Connection, fd: int) -> pb.BufferRegistered:
    """Registers the memfd ``fd`` on ``connection``; frames of that connection may then name it.

    Raises:
        FaceWorkerError: The worker's refusal: RESOURCE_EXHAUSTED when the
            connection has as many buffers as allowed or the mapping would
            pass its limit; INVALID_ARGUMENT when ``fd`` is not a memfd sealed
            against shrinking, or is empty. UNAVAILABLE when the handoff
            socket cannot be reached.
        ProtocolError: When the handoff's answer is not one.
    """
    reservation = connection.call(pb.ClientMessage(register_buffer=pb.RegisterBufferRequest())).register_buffer
    address = reservation.handoff_address
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as handoff:
        try:
            # "@" stands for the leading NUL byte of a Linux abstract address.
            handoff.connect("\0" + address[1:] if address.startswith("@") else address)
            sent = socket.send_fds(handoff, [reservation.token], [fd])
        except OSError as error:
            raise FaceWorkerError(
                StatusCode.UNAVAILABLE, f"cannot hand the buffer over at the worker's handoff socket {address}: {error}"
            ) from error
        if sent != len(reservation.token):
            raise FaceWorkerError(
                StatusCode.UNAVAILABLE,
                f"the handoff socket {address} took {sent} of the token's {len(reservation.token)} bytes",
            )
        answer = _read_answer(handoff, address)
    kind = answer.WhichOneof("kind")
    if kind == "error":
        raise FaceWorkerError.from_status(answer.error)
    if kind != "buffer_registered" or answer.buffer_registered.buffer_id != reservation.buffer_id:
        raise ProtocolError(
            f"the handoff socket {address} answered with {kind or 'a message of no kind'} where buffer_registered "
            f"for buffer {reservation.buffer_id} or error was due"
        )
    return answer.buffer_registered


def unregister(connection: Connection, buffer_id: int) -> None:
    """Forgets buffer ``buffer_id`` of ``connection``; the worker unmaps it once its frames are answered."""
    connection.call(pb.ClientMessage(unregister_buffer=pb.UnregisterBufferRequest(buffer_id=buffer_id)))


def _read_answer(handoff: socket.socket, address: str) -> pb.WorkerMessage:
    return read_framed(
        _read_exactly(handoff, _HEADER.size, address),
        lambda length: _read_exactly(handoff, length, address),
        f"the handoff socket {address}",
    )


def _read_exactly(handoff: socket.socket, count: int, address: str) -> bytes:
    try:
        received = handoff.recv(count, socket.MSG_WAITALL) if count else b""
    except OSError as error:
        raise FaceWorkerError(
            StatusCode.UNAVAILABLE, f"the handoff socket {address} failed before answering: {error}"
        ) from error
    if len(received) < count:
        raise FaceWorkerError(
            StatusCode.UNAVAILABLE,
            f"the handoff socket {address} closed the connection before answering ({len(received)} of {count} "
            "bytes received)",
        )
    return received
