"""Pictures of the model: a topology or one explanation as a ``Diagram``, written as Mermaid or DOT.

Pure: a ``Topology`` or an ``Explanation`` in, text out (no I/O, no Typer). ``graph`` and ``journey``
build the diagrams; ``mermaid`` and ``dot`` write any diagram, so both formats always show the same thing.
"""
