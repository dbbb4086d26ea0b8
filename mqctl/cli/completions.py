"""Write the shell completion scripts (bash, zsh, fish) as Typer generates them: `make completions`."""

from __future__ import annotations

import sys
from pathlib import Path

SHELLS = {"bash": "mqctl.bash", "zsh": "_mqctl", "fish": "mqctl.fish"}
COMPLETE_VAR = "_MQCTL_COMPLETE"


def script(shell: str) -> str:
    from typer.completion import get_completion_script

    return get_completion_script(prog_name="mqctl", complete_var=COMPLETE_VAR, shell=shell)


def write_all(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for shell, filename in SHELLS.items():
        path = folder / filename
        path.write_text(script(shell).rstrip("\n") + "\n")
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "completions")):
        print(p)
