"""Start (or join) a SparkSession: local mode by default, any master URL, the package shipped along.

On a cluster the executors' Python may not have mqctl installed: for a master that is not ``local``,
the ``mqctl`` package is zipped and added with ``addPyFile`` (what ``spark-submit --py-files`` does), so
the executors import the same domain engine as the driver. Local mode runs the workers with this very
interpreter.
"""

from __future__ import annotations

import os
import sys
import tempfile
import warnings
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from mqctl.spark.jvm_stderr import jvm_stderr_filtered

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

APP_NAME = "mqctl spark analyze"
LOG_CONFIG = Path(__file__).with_name("log4j2.properties")


def launched_by_spark_submit() -> bool:
    """spark-submit starts the JVM first and tells Python where it is: its master and --py-files apply."""
    return "PYSPARK_GATEWAY_PORT" in os.environ


def jvm_running() -> bool:
    """Spark is up already in this process: launched by spark-submit, or a session of the caller's
    (``spark_session`` joins it)."""
    if launched_by_spark_submit():
        return True
    from pyspark.sql import SparkSession

    return SparkSession.getActiveSession() is not None


def is_local(master: str) -> bool:
    return master == "local" or master.startswith("local[") or master.startswith("local-cluster")


def package_zip(folder: Path) -> Path:
    """The ``mqctl`` package as a zip for ``addPyFile`` (sources only, no caches)."""
    import mqctl

    root = Path(mqctl.__file__).resolve().parent
    target = folder / "mqctl.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                archive.write(path, Path("mqctl") / path.relative_to(root))
    return target


@contextmanager
def spark_session(
    master: str, *, driver_memory: str = "2g", partitions: int | None = None
) -> Iterator[SparkSession]:
    """A session for one analysis; one already running in this process (a test's) is used as it is and
    left running, one started here is stopped at the end."""
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        yield active
        return
    # PySpark warns about pandas releases it was not tested with; mqctl does not use pandas at all
    warnings.filterwarnings(
        "ignore", message="PySpark does not yet fully support pandas", category=FutureWarning
    )
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    submitted = launched_by_spark_submit()
    builder = SparkSession.builder if submitted else SparkSession.builder.master(master)
    builder = (
        builder.appName(APP_NAME)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", driver_memory)
        .config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile={LOG_CONFIG}")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.python.worker.reuse", "true")
    )
    if not submitted:  # spark-submit's own --conf is kept
        # the driver collects the aggregate of the routed facts (the estate's size: outputs.py); Spark's
        # default cap of 1g on a collect is lower than the memory the driver is given
        builder = builder.config("spark.driver.maxResultSize", driver_memory)
    # without --partitions the job sizes the shuffle partitions to the log (job.sized_partitions)
    if partitions is not None:
        builder = builder.config("spark.sql.shuffle.partitions", str(partitions))
    if submitted:
        session = builder.getOrCreate()
    else:
        with jvm_stderr_filtered():  # the JVM starts here
            session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    with tempfile.TemporaryDirectory(prefix="mqctl-spark-") as folder:
        try:
            if not submitted and not is_local(master):
                session.sparkContext.addPyFile(str(package_zip(Path(folder))))
            yield session
        finally:
            session.stop()
