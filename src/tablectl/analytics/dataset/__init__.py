"""The surveillance dataset: its schemas (``schemas``), the writer, manifests, lock and the
readers' check (``store``), and DuckDB questions over it (``queries`` and the ``.sql`` files)."""
