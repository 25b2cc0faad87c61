"""stops.py: what the `cardgen` command prints of exceptions dropped in finalisers."""
from __future__ import annotations

import sys

from cardgen import stops


class _Unraisable:
    def __init__(self, exc_value):
        self.exc_type, self.exc_value = type(exc_value), exc_value


def _hook_of(monkeypatch, asked):
    reported = []
    monkeypatch.setattr(stops, "_asked", asked)
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    return stops._quiet_about_lost_stops(sys.unraisablehook), reported


def test_without_a_stop_a_finalisers_error_is_reported(monkeypatch):
    hook, reported = _hook_of(monkeypatch, [])
    error = _Unraisable(AttributeError("'SpooledTemporaryFile' object has no attribute '_file'"))
    hook(error)
    assert reported == [error]


def test_after_a_stop_no_finalisers_error_is_reported(monkeypatch):
    # a Ctrl-C that cut a SpooledTemporaryFile short in its making: its __del__ fails, and the
    # command, stopped on purpose, prints no traceback of it (nor of the KeyboardInterrupt lost)
    hook, reported = _hook_of(monkeypatch, [2])
    hook(_Unraisable(AttributeError("'SpooledTemporaryFile' object has no attribute '_file'")))
    hook(_Unraisable(KeyboardInterrupt()))
    assert reported == []
