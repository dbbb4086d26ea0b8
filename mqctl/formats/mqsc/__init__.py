"""MQSC in and out: runmqsc scripts applied to a queue manager's model, dmpmqcfg-style dumps written.

Public API::

    parse_mqsc(text, *, file=None, inserts=None) -> list[ParsedItem]
    apply_mqsc(state, text, *, file, inserts, next_seq, continue_on_error=False) -> MqscRun
    dump_header_qmgr(text, *, file=None) -> str | None   # InputError for a name MQ refuses
    write_mqsc(state, *, generated=None, user="mqctl", host="mqctl") -> str
"""

from mqctl.formats.mqsc.apply import MqscRun, apply_mqsc
from mqctl.formats.mqsc.parser import BadCommand, Command, Param, ParsedItem, SkippedInsert, Value, parse_mqsc
from mqctl.formats.mqsc.writer import dump_header_qmgr, write_mqsc

__all__ = [
    "BadCommand",
    "Command",
    "MqscRun",
    "Param",
    "ParsedItem",
    "SkippedInsert",
    "Value",
    "apply_mqsc",
    "dump_header_qmgr",
    "parse_mqsc",
    "write_mqsc",
]
