"""Time that moves only when a test says so: the injected clock every layer takes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class FakeClock:
    """Starts at a fixed instant; ``tick()`` moves it forward (deadlines are computed from it)."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float = 1) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now
