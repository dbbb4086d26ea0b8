"""Moved to ``mqctl.domain.objects.subscriptions``; kept so older imports work."""

from mqctl.domain.objects.subscriptions import *  # noqa: F403
