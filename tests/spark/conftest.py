"""One SparkSession (local[2]) for the whole test run: the job and the CLI use the active one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    from mqctl.spark.session import spark_session

    with spark_session("local[2]") as session:  # shuffle partitions sized by the job
        yield session


HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here needs a JVM: marked ``spark`` so that ``make check`` can leave them out, and put in
    one pytest-xdist group so that one worker starts one JVM for them all."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.spark)
            item.add_marker(pytest.mark.xdist_group("spark"))
