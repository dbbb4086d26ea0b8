"""Moved to ``mqctl.domain.objects.topic_objects``; kept so older imports work."""

from mqctl.domain.objects.topic_objects import *  # noqa: F403
