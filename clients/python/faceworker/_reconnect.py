"""Finding the worker again after a lost connection: the backoff, the deadline, the notice.

A task or subscriber hands :func:`attempt_until_deadline` a function that
connects and restores everything on a fresh connection; it is tried until it
succeeds, the deadline passes, or the worker refuses the task for a reason no
retry can change.
"""

from __future__ import annotations

import logging
import time
from typing import Callable, Collection, TypeVar

from .errors import FaceWorkerError, StatusCode
from .options import ReconnectPolicy
from .results import Outage

_logger = logging.getLogger("faceworker")

T = TypeVar("T")

# UNAVAILABLE: nothing listens yet, or the old worker is still draining.
# DEADLINE_EXCEEDED: an attempt waited for a worker that never answered.
_RETRYABLE = frozenset({StatusCode.UNAVAILABLE, StatusCode.DEADLINE_EXCEEDED})


def attempt_until_deadline(
    attempt: Callable[[float], T],
    policy: ReconnectPolicy,
    lost_at: float,
    socket_path: str,
    also_retry: Collection[StatusCode] = (),
) -> T:
    """``attempt(seconds_left)``'s value, tried with ``policy``'s backoff from ``lost_at`` (monotonic).

    An attempt must give up by itself within ``seconds_left``, raising
    DEADLINE_EXCEEDED. Errors whose code is UNAVAILABLE, DEADLINE_EXCEEDED or
    in ``also_retry`` are tried again.

    Raises:
        FaceWorkerError: The worker's own error when it refused the attempt
            for another reason (the task's options, a protocol it does not
            speak); UNAVAILABLE once the deadline has passed.
    """
    deadline = lost_at + policy.deadline_seconds
    delay = policy.initial_delay_seconds
    while True:
        left = deadline - time.monotonic()
        try:
            return attempt(max(left, 0.0))
        except FaceWorkerError as error:
            if not retryable(error, also_retry):
                raise
            last = error
        left = deadline - time.monotonic()
        if left <= 0:
            raise gave_up(policy, socket_path, last)
        time.sleep(min(delay, left))
        delay = min(delay * 2, policy.max_delay_seconds)


def retryable(error: FaceWorkerError, also_retry: Collection[StatusCode] = ()) -> bool:
    """Whether an attempt that failed with ``error`` is worth another try."""
    return error.code in _RETRYABLE or error.code in also_retry


def gave_up(policy: ReconnectPolicy, socket_path: str, last: FaceWorkerError) -> FaceWorkerError:
    """The error a reconnect ends with once ``policy``'s deadline has passed, ``last`` the last attempt's."""
    return FaceWorkerError(
        StatusCode.UNAVAILABLE,
        f"no worker came back on {socket_path} within {policy.deadline_seconds:g} s; "
        f"the last attempt failed with {last.code.name}: {last.message}",
    )


def tell(policy: ReconnectPolicy, outage: Outage, what: str) -> None:
    """Tells the application of ``outage`` of ``what`` (a task or subscriber, for the log) once."""
    if policy.outage_callback is not None:
        policy.outage_callback(outage)
    elif outage.error is None:
        _logger.warning(
            "%s lost the worker (%s) and was back after %.3f s; %d frames sent before were dropped",
            what, outage.cause, outage.seconds, outage.dropped_frames,
        )
    else:
        _logger.error("%s lost the worker (%s) and gave up after %.3f s: %s", what, outage.cause, outage.seconds,
                      outage.error)


def deadline_exceeded(socket_path: str, waited: float) -> FaceWorkerError:
    """The error of an attempt that waited ``waited`` seconds for an answer that never came."""
    return FaceWorkerError(
        StatusCode.DEADLINE_EXCEEDED, f"the worker at {socket_path} did not answer within {waited:.3f} s"
    )
