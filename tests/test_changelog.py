"""The version and the changelog say what changed (issue 50: every commit was 0.1.0, with no
tag and no changelog). The changelog's newest release is the package's version, versions go
down the page, and the release steps are written where an admin looks."""

from __future__ import annotations

import re
from pathlib import Path

import bot

ROOT = Path(__file__).resolve().parents[1]
_RELEASE = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2}|Unreleased)$", re.M)


def _releases() -> list[tuple[tuple[int, int, int], str]]:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return [((int(a), int(b), int(c)), when) for a, b, c, when in _RELEASE.findall(text)]


def test_the_newest_release_in_the_changelog_is_the_package_version() -> None:
    releases = _releases()
    assert releases, "CHANGELOG.md has no '## [X.Y.Z] - YYYY-MM-DD' heading"
    newest = ".".join(map(str, releases[0][0]))
    assert newest == bot.__version__


def test_versions_go_down_the_page_and_only_the_newest_may_be_unreleased() -> None:
    releases = _releases()
    versions = [version for version, _when in releases]
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions)
    assert all(when != "Unreleased" for _version, when in releases[1:])


def test_the_release_steps_are_documented() -> None:
    admin = (ROOT / "docs" / "admin.md").read_text(encoding="utf-8")
    section = admin.split("## Releasing", 1)[1].split("\n## ", 1)[0]
    for needle in ("bot/__init__.py", "CHANGELOG.md", "git tag -a v", "--version"):
        assert needle in section, needle
