"""The publication log's rows as the job reads them (``job.read_publications``): shared by the keying
step and by ``rejected/``, which reads the rejected rows back from the log."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

GIVEN = ("from", "topic", "properties", "count_text", "bytes_text", "record")
"""The columns of a distinct log row (``job.read_publications``)."""

PLAIN_SIZE = r"^[0-9]{1,18}$"
"""A size as logs write it: digits that fit a 64-bit integer (Spark sums these exactly)."""
PLAIN_MAX = 10**18 - 1
"""The largest plain size: 18 digits."""
NUMBER = "bytes_number"
"""The size as a number, a column of the log frame when the log's sizes are whole numbers already (a
Parquet ``bytes`` of an integer type): no text to cast and match for each row."""


def sizes_apart(frame: DataFrame) -> DataFrame:
    """``frame`` with each plain size moved from ``bytes_text`` to the number ``bytes_plain``: rows that
    differ only in their size (most rows of a log) become one distinct row, checked and keyed once,
    with their sizes summed by Spark. Any other size text stays in ``bytes_text`` for the row's checks.
    A size given as a number (``NUMBER``) is plain when its text would be: from 0 to ``PLAIN_MAX``."""
    from pyspark.sql import functions as F

    text = F.col("bytes_text")
    if NUMBER in frame.columns:
        number = F.col(NUMBER)
        plain = number.between(0, PLAIN_MAX)
        return frame.withColumns(
            {
                "bytes_plain": F.when(plain, number),
                "bytes_text": F.when(plain, F.lit(None).cast("string")).otherwise(text),
            }
        )
    plain = text.rlike(PLAIN_SIZE)
    return frame.withColumns(
        {
            "bytes_plain": F.when(plain, text.cast("bigint")),
            "bytes_text": F.when(plain, F.lit(None).cast("string")).otherwise(text),
        }
    )
