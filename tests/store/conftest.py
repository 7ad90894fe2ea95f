"""The store tests use the service tests' real-file fixtures."""

from tests.service.conftest import db_path, store

__all__ = ["db_path", "store"]
