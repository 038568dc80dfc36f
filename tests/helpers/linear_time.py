"""Timing helper for the linear-time tests: compare a call at size n with the same call at 4n.

A linear algorithm takes about 4x as long on 4x the input; a quadratic one 16x.  The check
allows ``factor`` (12 by default: 4x with a 3x margin for the allocator, caches and a busy
machine), so it passes every linear (and n log n) entry point and fails a quadratic one
whose quadratic part is most of the time at n.

Robust on a shared box:

* The clock is the process's CPU time (``time.process_time``, threads included), so time
  spent waiting for a core while other jobs run is not counted.
* ``n`` is calibrated per case so that one call at n takes ``target`` seconds or more (the
  size doubles, then grows at most 4x a step, so a quadratic case cannot run away during
  calibration).  A call that stays below ``target`` up to ``n_max`` is bounded: it passes.
* Each size is timed best-of-``k`` (the minimum is the least disturbed run); a high ratio is
  measured again once, with more runs, before it fails.
* A ratio still high is set against a yardstick measured in the same moment: filling fresh
  memory of the same sizes, which is linear by construction.  CPU time counts the kernel's
  page-fault and reclaim work, and on a busy machine with little free memory that work can
  grow 10x or more from n to 4n for any call that allocates; the allowed ratio grows by as
  much as the yardstick's own did past 4x.  A quadratic call still grows 16x against a
  yardstick's 4x, and fails.
"""

from __future__ import annotations

import dataclasses
import gc
import time
from collections.abc import Callable
from typing import Any

CLOCK = time.process_time


@dataclasses.dataclass
class Growth:
    """The measurement: the size, the best times at n and 4n, and the ratio."""

    n: int
    t1: float
    t4: float

    @property
    def ratio(self) -> float:
        return self.t4 / self.t1 if self.t1 > 0 else float("inf")

    def __str__(self) -> str:
        return (f"n={self.n}: {self.t1 * 1e3:.2f} ms, 4n: {self.t4 * 1e3:.2f} ms, "
                f"ratio {self.ratio:.2f}")


def once(fn: Callable[[Any], Any], arg: Any) -> float:
    """CPU seconds of one call (an iterator result is consumed inside the timing), with the
    cycle collector paused as timeit pauses it: a full collection that the allocations of
    earlier cases happen to trigger inside the call would be timed as the call's."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = CLOCK()
        r = fn(arg)
        if hasattr(r, "__next__"):
            for _ in r:
                pass
        return CLOCK() - t0
    finally:
        if enabled:
            gc.enable()


def best_time(fn: Callable[[Any], Any], arg: Any, k: int = 3) -> float:
    """The best of ``k`` calls, in CPU seconds."""
    return min(once(fn, arg) for _ in range(k))


def calibrate(fn: Callable[[Any], Any], make: Callable[[int], Any], *, target: float,
              n0: int = 256, n_max: int = 1 << 20) -> int:
    """The first tried n (from n0, growing 4x or 2x a step) whose call takes ``target`` s."""
    n = n0
    once(fn, make(n))  # warm-up: the first call may load tables or compile patterns
    while True:
        t = once(fn, make(n))
        if t >= target or n >= n_max:
            return n
        # 4x while far below the target: even a quadratic call then stays under it.
        n = min(n * (4 if t < target / 16 else 2), n_max)


def _fill(nbytes: int) -> bytes:
    """The yardstick: linear work that allocates and writes ``nbytes`` fresh bytes."""
    return b"\x01" * nbytes


def yardstick(n: int, k: int) -> float:
    """How much more CPU time filling 4x the memory took than filling 1x (4.0 on a quiet
    machine), best of ``k`` at each size.  A call's memory per unit of size is unknown (1
    byte for ASCII text, 4 for a wide str, 8 for a list), and the allocator's behaviour
    steps at certain sizes (glibc maps blocks past its threshold, 32 MiB at most, freshly
    each time, and every page of them faults), so each width is tried and the largest
    growth is taken."""
    growth = 4.0
    for width in (1, 2, 4, 8):
        t1 = min(once(_fill, width * n) for _ in range(k))
        t4 = min(once(_fill, 4 * width * n) for _ in range(k))
        if t1 > 0:
            growth = max(growth, t4 / t1)
    return growth


def measure(fn: Callable[[Any], Any], make: Callable[[int], Any], n: int, k: int) -> Growth:
    small, big = make(n), make(4 * n)
    return Growth(n, best_time(fn, small, k), best_time(fn, big, k))


def assert_linear(fn: Callable[[Any], Any], make: Callable[[int], Any], *, label: str = "",
                  n: int | None = None, target: float = 0.003, k: int = 2,
                  factor: float = 12.0, slack: float = 0.001, n0: int = 256,
                  n_max: int = 1 << 20) -> Growth:
    """Fail unless fn(make(4n)) takes less than ``factor`` x fn(make(n)) (+ ``slack`` s).

    ``make(n)`` builds the argument for size n (outside the timing).  Returns the growth
    measured, for reports.
    """
    if n is None:
        n = calibrate(fn, make, target=target, n0=n0, n_max=n_max)
    g = measure(fn, make, n, k)
    if g.t4 > factor * g.t1 + slack:
        # Retry once: more runs, the sizes interleaved, keeping the best of everything.
        small, big = make(n), make(4 * n)
        for _ in range(k + 3):
            g.t1 = min(g.t1, once(fn, small))
            g.t4 = min(g.t4, once(fn, big))
    if g.t4 > factor * g.t1 + slack:
        # Still high: measure once more at twice the size. A real quadratic keeps its 16x
        # there; a cache or page-fault step at one size (seen on this VM) does not.
        g = measure(fn, make, 2 * n, k + 1)
    allowed = factor
    if g.t4 > factor * g.t1 + slack:
        # Still high at two sizes: set it against the yardstick, measured now, so that the
        # machine's memory behaviour at these sizes is divided out (see the module text).
        allowed = factor * max(1.0, yardstick(g.n, k + 1) / 4)
    assert g.t4 <= allowed * g.t1 + slack, (
        f"{label}: not linear: {g} (a linear call grows about 4x; allowed {allowed:.3g}x, "
        f"{factor:g}x times the yardstick's growth past 4x)"
    )
    return g
