"""`python -m mqctl`."""

from mqctl.cli.main import run

run()
