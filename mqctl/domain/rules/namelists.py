"""Moved to ``mqctl.domain.objects.namelists``; kept so older imports work."""

from mqctl.domain.objects.namelists import *  # noqa: F403
