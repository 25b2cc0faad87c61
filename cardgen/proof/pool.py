"""Forked worker processes that run chunks of work and send back the results, each worker
through a pipe of its own each way, so that whatever happens to a worker its parent only meets
the end of a pipe.

``multiprocessing.Pool`` was used before: its workers share one queue of tasks and one of
results, each behind a lock, fed and read by the pool's own threads. A stop that reached the
whole process group (Ctrl-C in a terminal, SIGTERM from a service manager) killed its workers
wherever they were: the pool forked new ones, the stopped run waited 10 s for results that would
never come, then ended the pool with ``terminate``, which can hang for good on a queue's lock
that a killed worker held. A parent killed outright (SIGKILL) left its workers running for ever.

Here nothing is shared: the parent sends a worker the number of its next chunk down one pipe
and reads the result from another. A stop (SIGINT or SIGTERM), to a worker alone or to the whole
group, unwinds the worker: the file it was writing is removed (see store.py) and it ends by that
signal. The parent, stopped, signals its workers the same way and waits for them (SIGKILL for
one still there after STOP_WAIT seconds): it never returns with a worker running. A parent that
ends however it ends takes its workers with it (``_end_with``).
"""
from __future__ import annotations

import ctypes
import os
import pickle
import select
import signal
import struct
import sys
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from .. import stops

_NUMBER = struct.Struct("<I")  # a chunk's number, parent to worker
_LENGTH = struct.Struct("<Q")  # the length of a result, worker to parent
WINDOW = 4  # chunks a worker, at most, past the one the parent waits for: results wait in memory
STOP_WAIT = 5.0  # seconds a stopped worker has to unwind before it is killed
PR_SET_PDEATHSIG = 1  # prctl's option (linux/prctl.h)
DONE, FAILED, LEFT = 0, 1, 2  # a chunk's result, its exception, or the type of the stop met in its work


class WorkerStopped(BaseException):
    """SIGINT or SIGTERM, in a worker: it unwinds, and ends by the signal."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


_stopped: list[int] = []  # in a worker: the stop it is unwinding for


def _stop_worker(signum, frame) -> None:
    # one stop unwinds the worker; another (the parent's, after the group's) would cut the
    # unwinding short. (Not SIG_IGN: Python complains of a signal it had noted and then finds ignored.)
    if not _stopped:
        _stopped.append(signum)
        raise WorkerStopped(signum)


@dataclass
class _Worker:
    pid: int
    tasks: int  # the pipe its chunks' numbers go down
    results: int  # the pipe its results come up
    # the number of the chunk it has, if any (one at a time: a chunk given to a busy worker would
    # wait there while another worker is free)
    chunk: int | None = None


class Pool:
    """``jobs`` forked workers that run ``work(items[n])`` for the chunks ``n`` the parent gives."""

    def __init__(self, work: Callable, items: Sequence, jobs: int, start: Callable[[], None] = lambda: None):
        self.work, self.items, self.start = work, items, start
        self.workers: list[_Worker] = []
        sys.stdout.flush()  # (a worker ends with os._exit: what is buffered now is the parent's to write)
        sys.stderr.flush()
        with stops.deferred():  # a stop between a fork and the worker's listing would leave it running
            for _ in range(jobs):
                try:
                    self.workers.append(self._fork())
                except OSError:  # the system refuses a process: fewer workers, or none (all done here)
                    break

    def _fork(self) -> _Worker:
        task_read, task_write = os.pipe()
        result_read, result_write = os.pipe()
        parent = os.getpid()
        # a stop between the fork and the worker's own handlers would only be noted in the worker,
        # by the parent's handler: held back until the worker has its handlers, it stops it then
        held = signal.pthread_sigmask(signal.SIG_BLOCK, stops.STOPS)
        try:
            pid = os.fork()
        except OSError:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            for fd in (task_read, task_write, result_read, result_write):
                os.close(fd)
            raise
        if pid == 0:  # the worker: it never returns into the caller's code
            code = 1
            try:
                for signum in stops.STOPS:
                    signal.signal(signum, _stop_worker)
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
                _end_with(parent)
                for fd in [task_write, result_read] + [fd for w in self.workers for fd in (w.tasks, w.results)]:
                    os.close(fd)  # the pipes of the parent's ends: they must close when the parent ends
                self.start()
                _serve(self.work, self.items, task_read, result_write)
                code = 0
            except WorkerStopped as stopped:
                signal.signal(stopped.signum, signal.SIG_DFL)
                os.kill(os.getpid(), stopped.signum)  # ended by the signal, as the parent sees it
            except BaseException:  # the parent is gone (a broken pipe), or worse: it is told by the pipe's end
                pass
            finally:
                os._exit(code)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        os.close(task_read)
        os.close(result_write)
        return _Worker(pid, task_write, result_read)

    def results(self) -> Iterator:
        """The results of the chunks, in order. A chunk whose work raised raises here; a chunk
        whose worker ended without its result (killed) is run in this process, unless Ctrl-C
        ended the worker: that stops the run."""
        count = len(self.items)
        ready: dict[int, tuple] = {}
        given = 0
        for wanted in range(count):
            until = min(count, wanted + 1 + WINDOW * len(self.workers))
            while wanted not in ready:
                if not self.workers:  # none left: the rest is done here
                    ready[wanted] = _run(self.work, self.items, wanted)
                    break
                given = self._give(given, until)
                self._receive(ready)
            # a worker that has answered starts its next chunk now, not once this result is used
            given = self._give(given, until)
            status, value = ready.pop(wanted)
            if status == FAILED:
                raise value
            if status == LEFT:
                raise value()
            yield value

    def _give(self, given: int, until: int) -> int:
        for worker in self.workers:
            if worker.chunk is None and given < until:
                try:
                    os.write(worker.tasks, _NUMBER.pack(given))
                except BrokenPipeError:  # the worker is gone: the end of its results pipe says so,
                    pass  # and the chunk is done here
                worker.chunk = given
                given += 1
        return given

    def _receive(self, ready: dict[int, tuple]) -> None:
        """Wait for results, and take every one that has come."""
        busy = {worker.results: worker for worker in self.workers if worker.chunk is not None}
        if not busy:
            return
        for fd in select.select(list(busy), [], [])[0]:
            worker = busy[fd]
            number, worker.chunk = worker.chunk, None
            message = _read_message(fd)
            if message is not None:
                ready[number] = message
                continue
            self.workers.remove(worker)
            if _ended(worker) == -signal.SIGINT:  # Ctrl-C reached it: the run is stopped
                raise KeyboardInterrupt
            ready[number] = _run(self.work, self.items, number)  # killed otherwise: its chunk is run here

    def close(self, finished: bool) -> None:
        """End the workers: they have nothing more to do (``finished``), or the run is over
        before its end, and they are stopped. Returns once none is left."""
        with stops.deferred():
            workers, self.workers = self.workers, []
            for worker in workers:
                os.close(worker.tasks)  # an idle worker ends there
                os.close(worker.results)  # one writing a result ends there (a broken pipe)
                worker.tasks = worker.results = -1
                if not finished:
                    _signal(worker.pid, signal.SIGTERM)
            deadline = time.monotonic() + STOP_WAIT
            for worker in workers:
                while not _reaped(worker) and time.monotonic() < deadline:
                    time.sleep(0.005)
                if worker.pid:
                    _signal(worker.pid, signal.SIGKILL)
                    _ended(worker)


def _end_with(parent: int) -> None:
    """Have the system stop this worker (SIGTERM) when the thread that forked it ends, however
    it ends: a parent killed by SIGKILL or the out-of-memory killer leaves no worker running
    (Linux's PR_SET_PDEATHSIG; elsewhere a worker ends when it next reads its pipe)."""
    try:
        prctl = ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        return
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # it ended before that was asked
        raise WorkerStopped(signal.SIGTERM)


def _serve(work: Callable, items: Sequence, tasks: int, results: int) -> None:
    while True:
        head = _read_exactly(tasks, _NUMBER.size)
        if head is None:  # the parent wants no more
            return
        number = _NUMBER.unpack(head)[0]
        message = _run(work, items, number)
        try:
            data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an exception, a result, that cannot be sent
            data = pickle.dumps((FAILED, RuntimeError(f"a worker's result could not be sent: {error!r}")))
        _write_all(results, _LENGTH.pack(len(data)) + data)


def _run(work: Callable, items: Sequence, number: int) -> tuple:
    try:
        return DONE, work(items[number])
    except WorkerStopped:
        raise
    except Exception as error:
        return FAILED, error
    except BaseException as stop:  # KeyboardInterrupt or SystemExit met in the work: carried to the parent
        return LEFT, type(stop)


def _read_message(fd: int) -> tuple | None:
    """A worker's next result, or None if the pipe ended before it whole."""
    head = _read_exactly(fd, _LENGTH.size)
    body = _read_exactly(fd, _LENGTH.unpack(head)[0]) if head is not None else None
    if body is None:
        return None
    try:
        return pickle.loads(body)
    except Exception as error:  # an exception that cannot be made again here
        return FAILED, RuntimeError(f"a worker's result could not be read: {error!r}")


def _read_exactly(fd: int, size: int) -> bytes | None:
    """``size`` bytes of ``fd`` (never more: the next message is left in the pipe, where select
    sees it), or None if it ends before."""
    data = bytearray()
    while len(data) < size:
        part = os.read(fd, min(size - len(data), 1 << 20))
        if not part:
            return None
        data += part
    return bytes(data)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def _reaped(worker: _Worker) -> bool:
    """Whether the worker has ended (and is waited for)."""
    if worker.pid and os.waitpid(worker.pid, os.WNOHANG)[0]:
        worker.pid = 0
    return not worker.pid


def _ended(worker: _Worker) -> int:
    """Wait for a worker to end: its exit code (minus the signal that ended it)."""
    _, status = os.waitpid(worker.pid, 0)
    worker.pid = 0
    return os.waitstatus_to_exitcode(status)
