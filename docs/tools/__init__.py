"""Build-time generators of the documentation site (run by ``hooks.py`` during ``mkdocs build``)."""
