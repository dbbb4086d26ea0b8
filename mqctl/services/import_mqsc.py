"""``mqctl import mqsc``: a whole estate, each MQSC file (dmpmqcfg dump or script) applied to its queue
manager through ``runmqsc``, in one transaction; any error changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from mqctl.domain.errors import InputErrors
from mqctl.formats.file_names import MqscFile, has_commands, mqsc_files, qmgr_for_file
from mqctl.formats.text_io import read_text_file
from mqctl.services.file_doors import FileResult
from mqctl.services.runmqsc import runmqsc
from mqctl.store.repository import Store


class FileRejected(InputErrors):
    """A script refused as a whole: reads as its first error; ``errors`` holds every one, in file order,
    as runmqsc reports them."""


def import_mqsc(
    store: Store,
    paths: Sequence[Path | str | MqscFile],
    *,
    inserts: Mapping[str, str],
    lines_done: Callable[[int], None] | None = None,
    encoding: str | None = None,
    empty: Callable[[Path], None] | None = None,
) -> list[FileResult]:
    """Many queue managers at once, one file each, in one transaction; any error changes nothing.

    ``lines_done`` is called with the number of lines read since its last call (also inside a big
    file), for a bar that moves with the work rather than the files. A file without a command (empty,
    or comments only) creates nothing unless its queue manager was named (``NAME=PATH``): ``empty`` is
    told of it."""
    results = []
    for item in mqsc_files(paths):
        path = item.path
        text = read_text_file(path, encoding)
        if not item.named and not has_commands(text):
            if empty is not None:
                empty(path)
            if lines_done is not None:
                lines_done(text.count("\n"))
            continue
        qmgr = qmgr_for_file(path, text, item.qmgr, named=item.named)
        reached = 0

        def advance(line: int) -> None:
            nonlocal reached
            if lines_done is not None and line > reached:
                lines_done(line - reached)
                reached = line

        result = runmqsc(
            store,
            qmgr,
            text,
            file=str(path),
            inserts=inserts,
            create=True,
            continue_on_error=False,
            progress=advance,
        )
        results.append(result)
        if result.run.errors:
            raise FileRejected(result.run.errors)
        advance(text.count("\n") + (0 if text.endswith("\n") or not text else 1))
    return results
