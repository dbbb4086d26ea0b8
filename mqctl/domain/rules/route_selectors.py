"""Moved to ``mqctl.domain.objects.route_selectors``; kept so older imports work."""

from mqctl.domain.objects.route_selectors import *  # noqa: F403
