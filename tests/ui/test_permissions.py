"""The permissions the bot asks for: one list (bot/ui/permissions.py), the invite link, the
checks in the code, docs/admin.md's table and the README all say the same."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import discord

from bot.i18n import tr
from bot.run import invite_url
from bot.ui import permissions
from bot.ui.permissions import PERMISSIONS, invite_permissions

ROOT = Path(__file__).resolve().parents[2]
ADMIN = ROOT / "docs" / "admin.md"
README = ROOT / "README.md"


def documented() -> dict[str, str]:
    """docs/admin.md's permission table: the permission's Discord name -> the feature."""
    section = ADMIN.read_text().split("## Permissions the bot needs", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| ([A-Z][^|]+?) \| ([^|]+?) \| ([^|]+?) \|$", section, re.M)
    return {name: feature for name, _, feature in rows if name != "Permission"}


def discord_name(attr: str) -> str:
    return tr(f"perm.{attr}", "en")


def test_the_invite_asks_for_exactly_the_documented_permissions() -> None:
    table = documented()
    names = {discord_name(n.name): n.name for n in PERMISSIONS}
    assert set(table) == set(names), "docs/admin.md's table and bot/ui/permissions.py differ"
    value = discord.Permissions(**dict.fromkeys(names.values(), True)).value
    assert invite_permissions().value == value
    assert invite_url(1).endswith(f"permissions={value}")
    assert f"`{value}`" in ADMIN.read_text()
    readme = README.read_text()
    assert f"permission integer `{value}`" in readme
    assert f"permissions={value}" in readme
    for need in PERMISSIONS:
        assert table[discord_name(need.name)] == need.feature, need


def test_the_invite_asks_for_what_thread_games_and_the_crash_check_need() -> None:
    asked = invite_permissions()
    for name in (
        "create_public_threads",
        "send_messages_in_threads",
        "read_message_history",
        "manage_webhooks",
    ):
        assert getattr(asked, name), name
    assert not asked.manage_threads
    assert not asked.administrator


def checked_permission_names() -> set[str]:
    """Every ``discord.Permissions`` attribute the Discord layer reads (``perms.x``,
    ``app_permissions.x``, ``permissions_for(...).x``, ``guild_permissions.x``)."""
    known = set(discord.Permissions.VALID_FLAGS)
    found: set[str] = set()
    for path in [*(ROOT / "bot").rglob("*.py")]:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in known:
                base = ast.unparse(node.value)
                if re.search(r"perms|permissions", base):
                    found.add(node.attr)
    return found


def test_every_permission_the_code_checks_is_asked_for() -> None:
    asked = {n.name for n in PERMISSIONS}
    checked = checked_permission_names()
    # is_manager reads the *member's* Manage Server, not the bot's.
    checked.discard("manage_guild")
    assert "manage_webhooks" in checked  # the scan sees the checks
    assert checked <= asked, checked - asked
    for group in (permissions.NEEDED, permissions.THREAD_NEEDED, permissions.POST_NEEDED):
        assert set(group) <= asked


def test_every_permission_has_its_words_in_both_languages() -> None:
    for need in PERMISSIONS:
        for lang in ("en", "fr"):
            assert tr(f"perm.{need.name}", lang) != f"perm.{need.name}"
