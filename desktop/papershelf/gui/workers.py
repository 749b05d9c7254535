"""Background jobs and the one hand-back of their results to the GUI thread.

A job is a plain function run on a QThreadPool. It never touches a widget: it
may report progress and check for cancellation through a `Job`, and its
result (or exception) reaches the GUI thread through queued signals of a relay
object that lives there (as Anki's `taskman` and Picard's `thread` do).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from papershelf.gui.qt import QObject, QRunnable, QThreadPool, Signal, Slot, alive

Done = Callable[[Any], None]
Failed = Callable[[BaseException], None]
Progressed = Callable[[int, int], None]
Partial = Callable[[Any], None]


class Job:
    """What a running task sees: a cancel flag and a progress reporter."""

    def __init__(self, relay: _Relay) -> None:
        self._relay = relay
        self._cancel = threading.Event()

    def cancel(self) -> None:
        """Ask the task to stop at its next check (from any thread)."""
        self._cancel.set()

    def cancelled(self) -> bool:
        """Whether cancellation was asked for."""
        return self._cancel.is_set()

    def progress(self, done: int, total: int) -> None:
        """Report progress (thread-safe: a queued signal)."""
        self._relay.progressed.emit(done, total)

    def partial(self, value: object) -> None:
        """Hand a result so far to the GUI thread (thread-safe: a queued signal), for
        a slow task whose answer is shown as it grows."""
        self._relay.partly.emit(value)


class _Relay(QObject):
    """Lives in the GUI thread; signals emitted from a worker are queued to it."""

    finished = Signal(object)
    failed = Signal(object)
    progressed = Signal(int, int)
    partly = Signal(object)

    def __init__(self, on_done: Done | None, on_error: Failed | None,
                 on_progress: Progressed | None, forget: Callable[[_Relay], None],
                 on_partial: Partial | None = None) -> None:
        super().__init__()
        self._on_done = on_done
        self._on_error = on_error
        self._on_progress = on_progress
        self._on_partial = on_partial
        self._forget = forget
        self.finished.connect(self._deliver_result)
        self.failed.connect(self._deliver_error)
        self.progressed.connect(self._deliver_progress)
        self.partly.connect(self._deliver_partial)

    @Slot(object)
    def _deliver_result(self, result: object) -> None:
        self._forget(self)
        if self._on_done is not None and alive(self._on_done):  # (its dialog may be gone)
            self._on_done(result)

    @Slot(object)
    def _deliver_error(self, error: object) -> None:
        self._forget(self)
        assert isinstance(error, BaseException)  # what `_Runnable.run` emits
        if self._on_error is None:
            raise error
        if alive(self._on_error):
            self._on_error(error)

    @Slot(int, int)
    def _deliver_progress(self, done: int, total: int) -> None:
        if self._on_progress is not None and alive(self._on_progress):
            self._on_progress(done, total)

    @Slot(object)
    def _deliver_partial(self, value: object) -> None:
        if self._on_partial is not None and alive(self._on_partial):
            self._on_partial(value)


class _Runnable(QRunnable):
    def __init__(self, task: Callable[[Job], Any], job: Job, relay: _Relay) -> None:
        super().__init__()
        self._task = task
        self._job = job
        self._relay = relay

    def run(self) -> None:
        try:
            result = self._task(self._job)
        except BaseException as exc:  # handed to the GUI thread, never lost
            self._relay.failed.emit(exc)
        else:
            self._relay.finished.emit(result)


class TaskManager(QObject):
    """Runs jobs off the GUI thread: writes one at a time (in order), reads beside them."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._writes = QThreadPool(self)
        self._writes.setMaxThreadCount(1)
        self._reads = QThreadPool(self)
        self._reads.setMaxThreadCount(2)
        self._relays: set[_Relay] = set()
        self._closed = False

    def run(self, task: Callable[[Job], Any], on_done: Done | None = None,
            on_error: Failed | None = None, on_progress: Progressed | None = None,
            *, write: bool = False, on_partial: Partial | None = None) -> Job:
        """Run `task(job)` in the background; callbacks run later in the GUI thread
        (`on_partial` with each `job.partial` value). Once closed, nothing runs: the
        job is cancelled and no callback is called."""
        relay = _Relay(on_done, on_error, on_progress, self._relays.discard, on_partial)
        job = Job(relay)
        if self._closed:
            job.cancel()
            return job
        self._relays.add(relay)
        (self._writes if write else self._reads).start(_Runnable(task, job, relay))
        return job

    def close(self) -> None:
        """Start no job from now on (the window closed, its work done): a result still
        on its way may ask for more (a view's next count), which must not run after the
        window, on a library about to close."""
        self._closed = True

    def busy(self) -> bool:
        """Whether a job has not yet delivered its result."""
        return bool(self._relays)

    def wait(self, msecs: int = -1) -> bool:
        """Block until every job has run (their callbacks are still queued, never lost)."""
        return self._reads.waitForDone(msecs) and self._writes.waitForDone(msecs)


class Latest:
    """Latest wins, for one thing shown (the table's ids, the sidebar's counts, a list).

    Every request supersedes the ones before it: the result of a superseded run is
    dropped, never delivered, so what is shown is always the newest answer. With
    `overlap`, a request starts at once beside the older run (a quick query the user
    waits on, as a search being typed); without it, a request made while a run is under
    way waits for that run and then runs once, so a burst of requests costs two runs of
    a costly computation, not one each. Errors are always delivered.
    """

    def __init__(self, tasks: TaskManager, on_error: Failed | None = None, *,
                 overlap: bool = False, on_idle: Callable[[], None] | None = None) -> None:
        self._tasks = tasks
        self._on_error = on_error
        self._overlap = overlap
        self._on_idle = on_idle
        self._generation = 0
        self._running = 0
        self._waiting: tuple[Callable[..., Any], Done, Partial | None] | None = None

    @property
    def running(self) -> bool:
        """Whether a run is under way or waiting."""
        return bool(self._running) or self._waiting is not None

    def request(self, compute: Callable[..., Any], on_result: Done,
                on_partial: Partial | None = None) -> None:
        """Compute in a worker; `on_result` gets the result in the GUI thread unless a
        later request superseded this one meanwhile. With `on_partial`, `compute` is
        called with a function that hands back results so far (`Job.partial`), each
        delivered to `on_partial` likewise: never one of a superseded request."""
        self._generation += 1
        if self._running and not self._overlap:
            self._waiting = (compute, on_result, on_partial)
            return
        self._start(compute, on_result, on_partial)

    def drop(self) -> None:
        """Deliver no result of the runs asked for so far."""
        self._generation += 1
        self._waiting = None

    def _start(self, compute: Callable[..., Any], on_result: Done,
               on_partial: Partial | None) -> None:
        generation = self._generation
        self._running += 1

        def done(result: Any) -> None:
            self._ended()
            if generation == self._generation:
                on_result(result)

        def failed(exc: BaseException) -> None:
            self._ended()
            if self._on_error is None:
                raise exc
            self._on_error(exc)

        if on_partial is None:
            self._tasks.run(lambda _job: compute(), done, failed)
            return

        def partial(value: Any) -> None:
            if generation == self._generation:
                on_partial(value)

        self._tasks.run(lambda job: compute(job.partial), done, failed, on_partial=partial)

    def _ended(self) -> None:
        self._running -= 1
        if self._waiting is not None and not self._running:
            compute, on_result, on_partial = self._waiting
            self._waiting = None
            self._start(compute, on_result, on_partial)
        elif not self._running and self._on_idle is not None:
            self._on_idle()
