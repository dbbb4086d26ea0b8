"""EMS in and out: server configuration files, tibemsd.json, tibemsadmin scripts, and writers.

Public API::

    read_server(tibemsd, *, server=None, topics=None, routes=None, durables=None, next_seq=None,
                encoding=None) -> EmsServerConfig
    apply_tibemsadmin(state, text, *, file, next_seq, continue_on_error=False) -> AdminRun
    write_topics_conf(state) -> str
    write_routes_conf(state) -> str
    write_durables_conf(state) -> str
"""

from mqctl.formats.ems.admin import AdminRun, apply_tibemsadmin
from mqctl.formats.ems.conf import (
    EmsServerConfig,
    read_durables_conf,
    read_routes_conf,
    read_server,
    read_topics_conf,
)
from mqctl.formats.ems.writer import write_durables_conf, write_routes_conf, write_topics_conf

__all__ = [
    "AdminRun",
    "EmsServerConfig",
    "apply_tibemsadmin",
    "read_durables_conf",
    "read_routes_conf",
    "read_server",
    "read_topics_conf",
    "write_durables_conf",
    "write_routes_conf",
    "write_topics_conf",
]
