"""The lines an operator reads after a command: counts in words ("1 game", never "1 games")."""

from __future__ import annotations

from pathlib import Path

from bot.ops.backup import BackupReport
from bot.service.storecopy import CopyReport


def test_backup_counts_its_games_in_words() -> None:
    def line(games: int) -> str:
        return BackupReport(Path("b.sqlite3"), 2_000_000, games, 9, 0.1).line()

    assert ": 1 game, schema 9," in line(1)
    assert ": 0 games, schema 9," in line(0) and ": 2 games, schema 9," in line(2)


def test_store_copy_counts_its_games_in_words() -> None:
    def line(games: int, different: tuple[str, ...] = ()) -> str:
        equal = games - len(different)
        return CopyReport("a", "b", games, 40, 9, equal, different, 0.5).line()

    assert line(1).startswith("copied 1 game (40 rows in 9 tables) from a to b; ")
    assert "; 1 of 1 game replays equal;" in line(1)
    assert "copied 2 games" in line(2) and "; 2 of 2 games replay equal;" in line(2)
    assert "; 1 of 1 game DIFFERS: game 7;" in line(1, ("game 7",))
    assert "; 1 of 3 games DIFFER: game 7;" in line(3, ("game 7",))
