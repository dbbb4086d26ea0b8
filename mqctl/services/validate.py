"""`validate`: the rules of docs/rules.md over the store's model, or over the model files define.

Without files the store is read (one query per table). With files the model is built in memory from
them alone (``services.file_model``): the user's store is neither read nor created, so CI gets the same
findings whatever the machine's store holds. A file that does not import is an IMPORT_ERROR finding
with its file and line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mqctl.domain.model import Topology
from mqctl.domain.validation import Finding, Rule, validate
from mqctl.store.repository import Store


@dataclass
class Validated:
    """The findings, sorted, of the rules that ran."""

    findings: list[Finding]
    rules: tuple[Rule, ...]
    empty_files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What the files held and the model leaves out, named (YAML kinds skipped, ConfigMaps not mounted)."""


def check(topology: Topology, rules: tuple[Rule, ...], extra: Sequence[Finding] = ()) -> list[Finding]:
    """The rules' findings over ``topology`` and the ``extra`` ones of the chosen rules, sorted."""
    chosen = {r.id for r in rules}
    found = [f for f in extra if f.rule.id in chosen]
    return sorted([*found, *validate(topology, rules)], key=lambda f: f.sort_key())


def validate_store(store: Store, rules: tuple[Rule, ...]) -> Validated:

    return Validated(check(store.topology(), rules), rules)


def validate_files(paths: Sequence[str | Path], rules: tuple[Rule, ...], encoding: str | None) -> Validated:
    from mqctl.services.file_model import read_files

    model = read_files(paths, encoding)
    return Validated(check(model.topology, rules, model.import_errors), rules, model.empty, model.notes)
