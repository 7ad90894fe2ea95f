"""The actor's private answer speaks to them (issue 34, last bullet): "You played 12-8 on your
own train", never "Carol played … on their own train"; after a double that leaves them to move,
what to play next; a drawn tile that fits "on the Mexican Train", with its article."""

from __future__ import annotations

from bot.engine import DRAW, MEXICAN, PASS, Applied, Play, Tile
from bot.service import Player, Step
from bot.ui.messages import own_step_lines, train_in_sentence

NAMES = ["Alice", "Bob", "Carol"]
CAROL = Player(2, "Carol", 3, None)


def _step(move: Play | type[DRAW] | type[PASS], **applied: object) -> Step:
    return Step(1, CAROL, move, Applied(seat=2, move=move, **applied), 0)  # type: ignore[arg-type]


def test_the_actor_reads_their_own_moves_in_the_second_person() -> None:
    own = Play(Tile(12, 8), 2)
    assert own_step_lines(NAMES, _step(own), "en") == ["You played 12-8 on your own train"]
    assert own_step_lines(NAMES, _step(own), "fr") == ["Tu as posé 12-8 sur ton train"]
    other = Play(Tile(5, 3), 0)
    assert own_step_lines(NAMES, _step(other), "en") == ["You played 5-3 on Alice's train"]
    mexican = Play(Tile(7, 7), MEXICAN)
    [line] = own_step_lines(NAMES, _step(mexican, opened_double=True), "en", again=True)
    assert line == (
        "You played 7-7 on the Mexican Train. "
        "A double: play again (a tile with a 7 satisfies it; draw if you have none)"
    )
    # A double the next player must satisfy (another rule): nothing to play again.
    assert "again" not in own_step_lines(NAMES, _step(mexican, opened_double=True), "en")[0]
    assert own_step_lines(NAMES, _step(DRAW), "en") == ["You drew a tile"]
    passed = own_step_lines(NAMES, _step(PASS, marker_raised=True), "fr")
    assert passed == ["Tu passes ; ton train est ouvert"]
    for lang in ("en", "fr"):
        assert not any("Carol" in line for line in own_step_lines(NAMES, _step(own), lang))


def test_a_train_in_a_sentence_takes_its_article() -> None:
    assert train_in_sentence(NAMES, MEXICAN, 2, "en") == "the Mexican Train"
    assert train_in_sentence(NAMES, MEXICAN, 2, "fr") == "le Train mexicain"
