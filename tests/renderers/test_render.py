"""Every position renders within bounds; hostile names; nothing hidden reaches the table."""

from __future__ import annotations

import json
import random

import pytest
from PIL import Image

from bot.engine import PRESETS, Match, Tile, view_for
from bot.engine.position import dumps, loads
from bot.engine.simulate import random_move
from renderers import HandOptions, TableOptions, render_hand, render_table, to_png
from renderers import text as rtext
from renderers.pieces import fit_train
from renderers.round_end import round_end_size
from renderers.table import table_size
from tests.renderers.positions import built, playout, spectator

#: Phone-first: 800 px wide, and at most 1.75 times as tall (a 10-player match-over table).
MAX_W, MAX_H = 800, 1400


def _counts(preset: str) -> list[int]:
    low, high = PRESETS[preset].player_range
    return sorted({low, (low + high) // 2, high})


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_playouts_render_within_bounds(preset: str) -> None:
    for players in _counts(preset):
        rng = random.Random(players * 7919 + len(preset))
        m = Match(PRESETS[preset], [f"P{i + 1}" for i in range(players)])
        m.start_round(m.shuffle(rng))
        rnd = m.round
        assert rnd is not None
        step = 0
        while True:
            if step % 45 == 0 or rnd.result is not None:
                table = render_table(view_for(m, None))
                assert table.size == table_size(view_for(m, None))
                assert table.width <= MAX_W and table.height <= MAX_H
                if step % 90 == 0 or rnd.result is not None:
                    hand = render_hand(view_for(m, rnd.current))
                    assert hand.width <= MAX_W and hand.height <= MAX_H
            if rnd.result is not None:
                break
            m.apply(random_move(rnd, rng))
            step += 1


def test_size_is_bounded_by_the_player_count() -> None:
    """However long the trains grow, the table is never taller than its player count allows
    (8 players: 1,104 px); a lane without a double, and a header without an open double to
    cover, keep no room for one (issue 47: shorter on a phone, nothing lost)."""
    short = built(8, {0: 1})
    long = built(8, {-1: 20, **{s: 8 for s in range(8)}}, open_doubles=(1,), marked=(2,))
    assert render_table(short).size == table_size(short)
    assert render_table(long).size == table_size(long)
    assert table_size(short)[1] < table_size(long)[1] <= 1104


def test_png_is_small_and_loads() -> None:
    img = render_table(built(8, {-1: 20, **{s: 8 for s in range(8)}}, marked=(1, 2)))
    data = to_png(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 250_000
    back = Image.open(__import__("io").BytesIO(data))
    assert back.size == img.size and back.mode == "P"


HOSTILE = [
    "🤖 Normal",
    "👨‍👩‍👧‍👦 family 🇫🇷 flags",
    "中文名字很长很长很长很长很长很长很长很长",
    "محمد عبد الله الطويل جدا جدا",
    "שלום עולם 123 (שם)",
    "W" * 32,
    "\u200b\u200d\u200c\u2060",
    "   ",
    "Z̷̢̛̛a̶̢̧l̴̨g̸o̵ ̷t̶e̵x̶t̴",
    "\u202eevil override\u202c",
    "Tab\there\nnewline",
    # Mathematical letters, as "fancy font" generators produce.
    "\U0001d557\U0001d552\U0001d55f\U0001d554\U0001d56a \U0001d4c8\U0001d4b8\U0001d4c7",
    "\U0010fffd unassigned \ue000",
]


def test_hostile_names_render() -> None:
    for theme in ("dark", "light"):
        for start in range(0, len(HOSTILE), 4):
            names = (HOSTILE[start:] + HOSTILE)[:6]
            m = playout(6, start, 60, names=names)
            flags = [i % 2 == 0 for i in range(6)]
            render_table(view_for(m, None), TableOptions(theme=theme, is_computer=flags))
            render_hand(view_for(m, 0), HandOptions(theme=theme))


@pytest.mark.parametrize("name", HOSTILE)
def test_names_are_cut_to_measured_width(name: str) -> None:
    for size, limit in ((22, 200), (18, 60), (20, 5)):
        shown = rtext.fit(name, size, limit, "bold")
        assert rtext.width(shown, size, "bold") <= limit
        assert "\u200d" not in shown and "\u202e" not in shown


def test_empty_name_falls_back_to_seat() -> None:
    from renderers.pieces import display_name

    v = view_for(playout(2, 1, 0, names=["\u200b\u200d", "Bob"]), None)
    assert display_name(v, 0) == "Player 1"
    assert display_name(v, 1) == "Bob"


def test_right_to_left_in_visual_order() -> None:
    assert rtext.visual_order("שלום") == "םולש"
    assert rtext.visual_order("abc שלום def") == "abc םולש def"
    # Digits inside Hebrew keep their order; brackets around Hebrew stay a pair.
    assert "12" in rtext.visual_order("שלום 12")
    assert rtext.visual_order("שלום 12 (שם) to play", ltr=True) == "(םש) 12 םולש to play"
    # Arabic letters get joined forms (beh-beh: initial then final).
    assert rtext.shape_arabic("\u0628\u0628") == "\ufe91\ufe90"


def _swap_hidden(m: Match) -> Match:
    """The same table with a tile swapped between seat 1's hand and the boneyard."""
    data = json.loads(dumps(m))
    rnd = data["current_round"]
    hand = rnd["hands"][0].split()
    bone = rnd["boneyard"].split()
    hand[0], bone[-1] = bone[-1], hand[0]
    rnd["hands"][0] = " ".join(hand)
    rnd["boneyard"] = " ".join(bone)
    return loads(json.dumps(data))


def test_table_does_not_depend_on_hidden_hands() -> None:
    m = playout(4, 3, 40)
    other = _swap_hidden(m)
    a, b = view_for(m, None), view_for(other, None)
    assert a.visible_hands == (None,) * 4
    assert render_table(a).tobytes() == render_table(b).tobytes()
    assert render_table(a, TableOptions(theme="light")).tobytes() == (
        render_table(b, TableOptions(theme="light")).tobytes()
    )


def test_hand_needs_a_seat() -> None:
    with pytest.raises(ValueError, match="spectator"):
        render_hand(spectator(playout(2, 1, 0)))


def test_unknown_theme_is_refused() -> None:
    with pytest.raises(ValueError, match="no theme"):
        render_table(spectator(playout(2, 1, 0)), TableOptions(theme="sepia"))


def test_fit_train_elides_the_middle() -> None:
    assert fit_train([80] * 5, 3, 1000, 70) == (5, 0)
    head, tail = fit_train([80] * 30, 3, 800, 70)
    assert head == 2 and 4 <= tail < 28
    assert head * 83 + 73 + tail * 83 <= 800 + 3


def test_tile_numerals_above_twelve() -> None:
    from renderers.paint import pip_layout, tile_sprite
    from renderers.theme import DARK

    assert [len(pip_layout(n)) for n in range(13)] == list(range(13))
    tile_sprite(DARK, 30, 18, 13, False)
    assert Tile(18, 13).pips == 31


def test_command_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from renderers.__main__ import main

    out = tmp_path / "t.png"
    assert main(["table", "--seed", "3", "--players", "4", "--moves", "40", "-o", str(out)]) == 0
    assert Image.open(out).size == table_size(view_for(playout(4, 3, 40), None))
    pos = tmp_path / "p.json"
    pos.write_text(dumps(playout(3, 9, 30)), encoding="utf-8")
    hand = tmp_path / "h.png"
    assert main(["position", str(pos), "--hand", "1", "--theme", "light", "-o", str(hand)]) == 0
    assert Image.open(hand).width == 800
    assert main(["position", str(tmp_path / "missing.json")]) == 2
    ended = tmp_path / "r.png"
    assert main(["round-end", "--players", "6", "--round", "2", "-o", str(ended)]) == 0
    assert Image.open(ended).size == round_end_size(6)
    assert main(["round-end", "--round", "14", "-o", str(ended)]) == 2  # 13 rounds


def test_tile_modes() -> None:
    view = built(4, {0: 5, -1: 3})
    pips = render_table(view)
    numerals = render_table(view, TableOptions(tiles="numerals"))
    assert pips.size == numerals.size and pips.tobytes() != numerals.tobytes()
    # The high-contrast numerals are drawn larger than the ones laid over pips.
    from renderers import text_sizes

    def tile_px(img: Image.Image) -> int:
        return max(px for px, label in text_sizes(img) if label == "7" or label == "5")

    assert tile_px(numerals) > tile_px(pips)
    with pytest.raises(ValueError, match="no tile mode"):
        render_table(view, TableOptions(tiles="dots"))
    with pytest.raises(ValueError, match="no tile mode"):
        render_hand(view_for(playout(2, 1, 0), 0), HandOptions(tiles="big"))


def test_counts_take_each_languages_plural() -> None:
    from renderers.pieces import plural

    assert plural("pic.tiles", 2, "en") == "2 tiles"
    assert plural("pic.tiles", 1, "en") == "1 tile"
    assert plural("pic.tiles", 0, "en") == "0 tiles"
    assert plural("pic.tiles", 0, "fr") == "0 domino"
    assert plural("pic.points", 1, "fr-FR") == "1 pt"
    # No picture says "1 tiles" or "1 pts" (a seat with one tile left reads "1 tile!").
    import re

    from renderers import text_sizes

    bad = re.compile(r"(?<![\d+])1 (tiles|pts|dominos)\b|(?<![\d+])0 dominos")
    m = playout(3, 4, 200)
    for lang in ("en", "fr"):
        for view in (view_for(m, None), built(3, {0: 2}, current=1)):
            labels = [label for _px, label in text_sizes(render_table(view, TableOptions(
                language=lang)))]  # fmt: skip
            assert not [x for x in labels if bad.search(x)], labels


def test_hand_names_the_mexican_train_as_the_texts_do() -> None:
    """Under a playable tile the Mexican Train has the name every text gives it ("Mexican
    Train", in French "Train mexicain"), not the lowercase typed word; too wide for one line
    as a tile's only train, it breaks between its words. The other labels still parse back
    to the train they name."""
    from bot.engine import MEXICAN
    from bot.engine.moves import parse_train
    from bot.i18n import tr
    from renderers import text_sizes
    from renderers.hand import sections

    for seed in range(60):
        m = playout(3, seed, 12)
        assert m.round is not None
        v = view_for(m, m.round.current)
        cells = [c for _id, cs in sections(v, (), "en") for c in cs]
        if any(c.targets == (f"→ {tr('train.mexican', 'en')}",) for c in cells):
            break
    else:
        pytest.fail("no seed gave a hand with a tile that plays only on the Mexican Train")
    for lang, lines in (("en", ["→ Mexican", "Train"]), ("fr", ["→ Train", "mexicain"])):
        assert " ".join(lines).removeprefix("→ ") == tr("train.mexican", lang)
        labels = [label for _px, label in text_sizes(render_hand(v, HandOptions(language=lang)))]
        assert all(line in labels for line in lines), labels
        assert not {"→ mexican", "→ mexicain"} & set(labels)
        words = {
            t.removeprefix("→ ") for _id, cs in sections(v, (), lang) for c in cs for t in c.targets
        }
        for word in words - {tr("train.mexican", lang)}:
            assert parse_train(word, players=3) != MEXICAN


def test_a_hand_label_shrinks_then_cuts_the_name_and_keeps_the_count() -> None:
    """A second line that names the Mexican Train beside further trains is cut at 18 px,
    never smaller, and keeps its "+1": the trains it does not show (one too many before)."""
    from renderers.hand import _label_lines

    assert _label_lines(["→ @1", "→ @2", "→ @3"]) == [("→ @1", 22), ("→ @2 +1", 22)]
    lines = _label_lines(["→ @1", "→ Mexican Train", "→ @3"])
    assert lines[0] == ("→ @1", 22)
    assert lines[1][1] == 18 and lines[1][0].endswith("… +1"), lines


def test_a_plan_of_one_step_is_not_drawn() -> None:
    """A one-tile hand's plan is that tile: "#1" and the legend would explain nothing that
    "→ @1" under it does not, so neither is drawn (nor said in the alt text); a plan of two
    steps keeps both."""
    from bot.engine.ai.trains import longest_train
    from bot.i18n import tr
    from renderers import text_sizes
    from renderers.alt_text import describe_hand

    m = playout(2, 6, 38)
    assert m.round is not None
    v = view_for(m, m.round.current)
    assert v.hand is not None and len(v.hand) == 1 and v.my_turn
    plan = longest_train(v.hand, v.trains[v.seat].end)
    assert plan == v.hand
    options = HandOptions(plan=plan)
    labels = [label for _px, label in text_sizes(render_hand(v, options))]
    assert tr("pic.hand.plan-legend", "en") not in labels and "#1" not in labels, labels
    assert render_hand(v, options).size == render_hand(v).size
    assert "plan" not in describe_hand(v, options).lower()
    from renderers.hand import LEGEND_H, marked_plan

    assert marked_plan(v, plan) == ()

    two = playout(4, 7, 36)
    assert two.round is not None
    w = view_for(two, two.round.current)
    assert w.hand is not None
    labels = [label for _px, label in text_sizes(render_hand(w, HandOptions(plan=w.hand[:2])))]
    assert "#1" in labels and "#2" in labels
    assert any(label.startswith("#1, #2") for label in labels), labels
    with_plan = render_hand(w, HandOptions(plan=w.hand[:2])).size[1]
    assert with_plan >= render_hand(w).size[1] + LEGEND_H


def test_png_uses_the_themes_fixed_palette() -> None:
    import io

    from renderers.png import theme_palette
    from renderers.theme import DARK, LIGHT

    hand = render_hand(view_for(playout(4, 7, 30), 0), HandOptions(theme="light"))
    for th, img in ((DARK, render_table(built(8, {0: 3}))), (LIGHT, hand)):
        back = Image.open(io.BytesIO(to_png(img)))
        assert back.mode == "P"
        assert back.getpalette() == theme_palette(th).getpalette()
        # Every flat colour survives exactly and the blends stay close: a faithful copy.
        from PIL import ImageChops, ImageStat

        diff = ImageStat.Stat(ImageChops.difference(img, back.convert("RGB"))).mean
        assert sum(diff) / 3 < 1.0


def test_every_render_reports_its_text() -> None:
    from renderers import text_sizes

    img = render_table(built(4, {0: 3}, marked=(1,)))
    labels = {label for _px, label in text_sizes(img)}
    assert {"Player 1", "marker", "Mexican Train", "12"} <= labels
    assert text_sizes(Image.new("RGB", (4, 4))) == ()


def test_the_hint_says_pick_where_the_moves_are_a_list() -> None:
    """In a turn DM the moves are one tap away in the list under the picture: the hint says
    to pick there; elsewhere (the channel's private answer) it says what to type."""
    from bot.engine import Play
    from renderers import text_sizes

    for seed in range(40):
        m = playout(3, seed, 6)
        assert m.round is not None
        v = view_for(m, m.round.current)
        if any(isinstance(mv, Play) for mv in v.legal):
            break
    else:
        pytest.fail("no seed gave a hand with a play")
    for lang, typed, picked in (
        ("en", "Type a tile and its train", "Pick your move in the list"),
        ("fr", "Tape un domino et son train", "Choisis ton coup dans la liste"),
    ):
        typing = " ".join(t for _px, t in text_sizes(render_hand(v, HandOptions(language=lang))))
        pick = HandOptions(language=lang, pick=True)
        picking = " ".join(t for _px, t in text_sizes(render_hand(v, pick)))
        assert typed in typing and picked not in typing
        assert picked in picking and typed not in picking
