"""Routing analytics on Apache Spark: replay a publication log through a snapshot (``mqctl spark analyze``).

``batches`` runs on the executors (Arrow batches, the domain engine); ``job`` plans the Spark work on the
driver; ``session`` starts Spark (local mode or any ``--master``); ``progress`` shows Spark's stages.
See docs/spark.md.
"""
