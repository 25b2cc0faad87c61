"""Ctrl-C and SIGTERM: how a stop reaches a build, and when it may not.

The `cardgen` command (cli.run) makes both unwind the build as a KeyboardInterrupt, and
remembers that a stop was asked for: Python drops an exception raised inside a finaliser
(``__del__``), where a handler may happen to run, and a build whose stop was lost that way
still stops at its next ``check()`` (a page written, a commit about to start).

``deferred()`` holds stops back while a few renames commit files that belong together: a stop
that arrives inside is noted, and delivered when the block ends. Blocking the signals
(``pthread_sigmask``) would not do: Python runs its handlers in the main thread whichever thread
the kernel hands a signal to, and a build has threads of its own.
"""
from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
from typing import Iterator

STOPS = (signal.SIGINT, signal.SIGTERM)
_asked: list[int] = []


def _unwind(signum, frame) -> None:
    _asked.append(signum)
    raise KeyboardInterrupt


def _noted_only(signum, frame) -> None:
    _asked.append(signum)


def unwind_on_stops() -> None:
    """From now on SIGINT and SIGTERM raise KeyboardInterrupt, and are remembered. One that the
    process was started ignoring (a background job's Ctrl-C) stays ignored."""
    for signum in STOPS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _unwind)
    sys.unraisablehook = _quiet_about_lost_stops(sys.unraisablehook)


def _quiet_about_lost_stops(report):
    """Python prints an exception it drops in a finaliser, with its traceback. Once a stop was
    asked for, none is news: a lost stop (``check()`` acts on it), or the finaliser of an object
    the stop cut short while it was being made (a SpooledTemporaryFile without its file), and
    the command prints no traceback."""
    def hook(unraisable) -> None:
        if not _asked:
            report(unraisable)
    return hook


def note_stops_only() -> None:
    """From now on SIGINT and SIGTERM are remembered and nothing else (the work is over)."""
    for signum in STOPS:
        signal.signal(signum, _noted_only)


def asked() -> tuple[int, ...]:
    """The stops asked for so far, in order."""
    return tuple(_asked)


def check() -> None:
    """Raise KeyboardInterrupt if a stop was asked for (its own may have been lost). Only in the
    main thread, which a stop interrupts: another thread (`cardgen serve` writing a preview)
    finishes its file while the main thread shuts down."""
    if _asked and threading.current_thread() is threading.main_thread():
        raise KeyboardInterrupt


@contextmanager
def deferred() -> Iterator[None]:
    """Run the block without being stopped half-way by SIGINT or SIGTERM; a stop asked for
    meanwhile takes effect as the block ends (whether it ended well or raised)."""
    if threading.current_thread() is not threading.main_thread():
        # only the main thread may set handlers, and only it is ever interrupted by them
        yield
        return
    arrived: list[int] = []

    def note(signum, frame) -> None:
        arrived.append(signum)

    previous = {}
    try:
        for signum in STOPS:
            # a handler set outside Python (getsignal: None) could not be put back: left alone
            if signal.getsignal(signum) is not None:
                previous[signum] = signal.signal(signum, note)
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(arrived):
            signal.raise_signal(signum)
