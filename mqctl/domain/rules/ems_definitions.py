"""Moved to ``mqctl.domain.objects.ems_definitions``; kept so older imports work."""

from mqctl.domain.objects.ems_definitions import *  # noqa: F403
