"""The Mexican Train Discord bot (see README.md and docs/layout.md)."""

#: The release (pyproject.toml reads it from here; ``mexican-train-bot --version`` prints it).
__version__ = "0.2.0"
