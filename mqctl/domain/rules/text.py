"""Moved to ``mqctl.domain.objects.text``; kept so older imports work."""

from mqctl.domain.objects.text import *  # noqa: F403
