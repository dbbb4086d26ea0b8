"""Moved to ``mqctl.domain.objects.clusters``; kept so older imports work."""

from mqctl.domain.objects.clusters import *  # noqa: F403
