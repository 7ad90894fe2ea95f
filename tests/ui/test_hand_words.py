"""A hand picture's description says exactly what the picture shows.

The picture is drawn for real (``render_hand``, which records every label it draws); its
section titles, tile labels, ``#N`` badges and ``+N`` chips are read back and compared with the
lists in the description, for hands of every size — small ones, and big ones whose sections
the picture folds into a chip.
"""

from __future__ import annotations

import random
import re

from bot.engine import Match, Rules, SeatView, view_for
from bot.engine.simulate import random_move
from bot.i18n import tr
from bot.ui.alt_text import LIMIT, describe_hand
from bot.ui.pictures import hand_options
from renderers import render_hand, text_sizes

SECTIONS = ("playable", "plan", "other", "yours")


def _views() -> list[SeatView]:
    """Seats' own views at many points of many rounds: 2 to 6 players, double-12 to
    double-18 sets, hands of 1 to 30 tiles."""
    views = []
    for seed in range(12):
        rng = random.Random(seed)
        players = 2 + seed % 5
        rules = Rules(max_pip=18, hand_size=30) if seed % 4 == 0 else Rules(max_pip=12)
        if seed % 4 == 1:
            rules = Rules(max_pip=15, hand_size=20)
        m = Match(rules, [f"P{i + 1}" for i in range(players)])
        m.start_round(m.shuffle(rng))
        for step in range(200):
            assert m.round is not None
            if m.round.result is not None:
                break
            if step % 9 == 0:
                views.append(view_for(m, m.round.current))
                views.append(view_for(m, (m.round.current + 1) % players))
            m.apply(random_move(m.round, rng))
    return views


def _picture(view: SeatView, show_plan: bool) -> dict[str, tuple[list[str], int]]:
    """Per section the picture drew: its tile labels in order and its "+N" count; and
    under ``badges`` the planned tiles by badge number."""
    image = render_hand(view, hand_options(view, show_plan, "en"))
    titles = {f"{tr(f'pic.hand.{s}', 'en')} (": s for s in SECTIONS}
    drawn: dict[str, tuple[list[str], int]] = {}
    section = ""
    badges: dict[int, str] = {}
    badge = 0
    for _px, label in text_sizes(image):
        title = next((s for t, s in titles.items() if label.startswith(t)), None)
        if title is not None:
            section = title
            drawn[section] = ([], 0)
        elif section and re.fullmatch(r"\d+-\d+", label):
            drawn[section][0].append(label)
            if badge:
                badges[badge] = label
                badge = 0
        elif section and re.fullmatch(r"#\d+", label):
            badge = int(label[1:])
        elif section and re.fullmatch(r"\+\d+", label):
            drawn[section] = (drawn[section][0], int(label[1:]))
    drawn["badges"] = ([badges[n] for n in sorted(badges)], 0)
    return drawn


def _said(description: str, head: str) -> tuple[list[str], int]:
    """The tiles of the description's list after ``head``, and its "and N more"."""
    found = re.search(re.escape(head) + r": (.*?)\.(?: |$)", description)
    if found is None:
        return [], 0
    items, more = found.group(1), 0
    if folded := re.search(r" and (\d+) more$", items):
        items, more = items[: folded.start()], int(folded.group(1))
    sep = "; " if head == "Playable now" else ", "
    return [item.split(" on ")[0] for item in items.split(sep)], more


def test_a_hand_description_lists_exactly_the_tiles_its_picture_shows() -> None:
    compared = folded = 0
    for view in _views():
        for show_plan in (True, False):
            description = describe_hand(view, show_plan, "en")
            if len(description) >= LIMIT:
                continue  # cut to Discord's limit: it cannot list everything
            picture = _picture(view, show_plan)
            compared += 1
            folded += any(more for _tiles, more in picture.values())
            assert _said(description, "Playable now") == picture.get("playable", ([], 0))
            plan = _said(description, "Your train plan, in playing order")
            badges = (picture["badges"][0], picture.get("plan", ([], 0))[1])
            assert plan == badges, (plan, picture, description)
            others = picture.get("other") or picture.get("yours") or ([], 0)
            head = "Other tiles" if "other" in picture else "Your tiles"
            assert _said(description, head) == others, (description, picture)
            # Planned tiles outside the playable ones have a section of their own: never
            # also "other tiles".
            assert not set(picture.get("plan", ([], 0))[0]) & set(others[0])
    assert compared > 300 and folded > 10, (compared, folded)
