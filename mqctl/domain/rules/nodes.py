"""Moved to ``mqctl.domain.objects.nodes``; kept so older imports work."""

from mqctl.domain.objects.nodes import *  # noqa: F403
