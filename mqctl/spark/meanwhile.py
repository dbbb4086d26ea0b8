"""A Spark action run in the background while the driver does Python work of its own.

The driver's Python and the executors' JVM are separate workers: while Spark counts the log's rows, the
driver can read and check the snapshot instead of waiting (on a cluster the count costs the driver
nothing; in local mode it shares the cores). The action runs in a ``pyspark.InheritableThread`` under a
job group (the caller's, else one of its own), so that it can be cancelled when the driver's own work
fails: the driver runs no job of its own meanwhile.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from pyspark import SparkContext

__all__ = ["Meanwhile"]

T = TypeVar("T")


class Meanwhile(Generic[T]):
    """``action`` started at once in the background; ``result`` waits for it (and raises what it
    raised), ``cancel`` stops its jobs and waits for the thread to end."""

    def __init__(self, context: SparkContext, action: Callable[[], T], description: str) -> None:
        from pyspark import InheritableThread

        self._context = context
        # the caller's job group when it has one (the CLI's progress bar follows it), else one of its own
        inherited = context.getLocalProperty("spark.jobGroup.id")
        self._group = inherited or f"mqctl-{uuid.uuid4().hex}"
        self._value: T | None = None
        self._error: BaseException | None = None

        def run() -> None:
            if inherited is None:
                context.setJobGroup(self._group, description, interruptOnCancel=True)
            try:
                self._value = action()
            except BaseException as exc:  # handed to the caller by ``result``
                self._error = exc

        self._thread = InheritableThread(target=run, daemon=True)
        self._thread.start()

    def result(self) -> T:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]

    def cancel(self) -> None:
        self._context.cancelJobGroup(self._group)
        self._thread.join()
