"""The store tests use the service tests' real-file fixture (``db_path`` is project-wide)."""

from tests.service.conftest import store

__all__ = ["store"]
