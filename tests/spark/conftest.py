"""One SparkSession (local[2]) for the whole test run: the job and the CLI use the active one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    from mqctl.spark.session import spark_session

    with spark_session("local[2]") as session:  # shuffle partitions sized by the job
        yield session
