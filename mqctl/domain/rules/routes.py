"""Moved to ``mqctl.domain.objects.routes``; kept so older imports work."""

from mqctl.domain.objects.routes import *  # noqa: F403
