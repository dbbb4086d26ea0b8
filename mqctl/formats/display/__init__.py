"""Saved DISPLAY output of real queue managers (runmqsc text, REST runCommandJSON) in and out."""

from mqctl.formats.display.reader import Block, Capture, read_capture, read_captures
from mqctl.formats.display.writer import DisplayCommand, predicted_commands, to_json, to_runmqsc

__all__ = [
    "Block",
    "Capture",
    "DisplayCommand",
    "predicted_commands",
    "read_capture",
    "read_captures",
    "to_json",
    "to_runmqsc",
]
