"""Moved to ``mqctl.domain.objects.channels``; kept so older imports work."""

from mqctl.domain.objects.channels import *  # noqa: F403
