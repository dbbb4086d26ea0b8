"""The shipped completion scripts are current, and completing partial commands gives the right words."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mqctl.cli.completions import COMPLETE_VAR, SHELLS, script

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_shipped_scripts_are_what_typer_generates(shell: str) -> None:
    shipped = (REPO / "completions" / SHELLS[shell]).read_text()
    assert shipped == script(shell).rstrip("\n") + "\n", "run `make completions`"


def _protocol(shell: str, line: str) -> list[str]:
    """Ask mqctl for completions the way the shell script does (environment protocol)."""
    env = dict(os.environ, **{COMPLETE_VAR: f"complete_{shell}"})
    if shell == "bash":
        words = line.split(" ")
        env.update(COMP_WORDS=line, COMP_CWORD=str(len(words) - 1))
    else:
        env["_TYPER_COMPLETE_ARGS"] = line
        if shell == "fish":
            env["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    done = subprocess.run([str(BIN / "mqctl")], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    if shell == "zsh":  # _arguments '*: :(("topic":"help"))'
        import re

        return re.findall(r'\("([^"]+)":', done.stdout) + re.findall(r'\(\(([^":)]+)\)\)', done.stdout)
    return [raw.split("\t")[0] for raw in done.stdout.splitlines() if raw.strip()]


@pytest.mark.parametrize("shell", sorted(SHELLS))
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("mqctl def", "define"),
        ("mqctl define t", "topic"),
        ("mqctl display q", "qmgr"),
        ("mqctl db u", "upgrade"),
    ],
)
def test_partial_commands_complete(shell: str, line: str, expected: str) -> None:
    words = _protocol(shell, line)
    assert any(w == expected or w.startswith(expected + " ") for w in words), words
    assert all(w.split()[0].startswith(line.split(" ")[-1]) for w in words if w.strip()), words


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_script_drives_completion_end_to_end() -> None:
    """Source the shipped bash script and call its function as bash would on <TAB>."""
    program = f"""
    export PATH="{BIN}:$PATH"
    source "{REPO / "completions" / SHELLS["bash"]}"
    COMP_WORDS=(mqctl define t); COMP_CWORD=2
    _mqctl_completion mqctl
    printf '%s\\n' "${{COMPREPLY[@]}}"
    """
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "topic" in done.stdout.split()
