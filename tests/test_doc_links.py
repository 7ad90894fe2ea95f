"""Every relative link and ``#anchor`` in README.md and docs/*.md leads somewhere.

The README was split into guides (docs/players.md, docs/admin.md) and links between pages now
carry anchors; a renamed heading breaks them silently on GitHub, so this reads each page's
headings the way GitHub turns them into anchors and checks every link against them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
_HTML_ID = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the text as rendered (code marks and link targets
    dropped), lower-cased, every character that is not a letter, digit, space, ``-`` or ``_``
    removed, then each space made a ``-`` (runs are not collapsed)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link reads as its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    text = re.sub(r"[*~]|(?<!\w)_|_(?!\w)", "", text)  # emphasis marks
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives ``page``'s headings; a repeated one gets ``-1``, ``-2``..."""
    text = _FENCE.sub("", page.read_text())
    seen: dict[str, int] = {}
    found = set(_HTML_ID.findall(text))
    for _level, heading in _HEADING.findall(text):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    """The link targets on ``page``, outside code blocks and code spans."""
    text = _CODE.sub("", _FENCE.sub("", page.read_text()))
    return _LINK.findall(text)


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto: ...
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target} (no heading #{anchor} in {linked.name})")
    return broken


def test_the_slug_follows_githubs_rules() -> None:
    assert slug("Discord's request budget") == "discords-request-budget"
    assert slug("Under Discord's rate limits (issue 24)") == "under-discords-rate-limits-issue-24"
    assert slug("Your turn: one ping, with your hand") == "your-turn-one-ping-with-your-hand"
    assert slug("`MT_DATABASE` and the *store*") == "mt_database-and-the-store"
    assert slug("Règles — maison") == "règles--maison"


def test_repeated_headings_get_numbered_anchors(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Notes\n\n```\n# not a heading\n```\n\n## Notes\n\n### Notes\n")
    assert anchors(page) == {"notes", "notes-1", "notes-2"}


def test_a_missing_anchor_or_file_is_caught(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Here\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Top\n[ok](#top) [ok](other.md#here) [bad](#nowhere) [bad](other.md#there) "
        "[bad](missing.md) `[code](#ignored)` [web](https://example.com/#x)\n"
    )
    assert broken_links(page) == [
        "#nowhere (no heading #nowhere in page.md)",
        "other.md#there (no heading #there in other.md)",
        "missing.md (no such file)",
    ]


def test_the_pages_have_links_to_check() -> None:
    assert sum(len(links(page)) for page in PAGES) > 50


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_relative_link_and_anchor_leads_somewhere(page: Path) -> None:
    assert broken_links(page) == []
