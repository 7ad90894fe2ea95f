"""Discord's documented limits on what a message may hold, checked in one place before a send.

Discord refuses a whole message (400, code 50035 "Invalid Form Body") when one part is over
its limit: a 2,001-character answer, a field of 1,025, a button label of 81. A refused answer
leaves the player on "thinking…" and a refused table post loses the move's announcement, so
every send of the bot passes its keyword arguments through :func:`fit` first::

    await channel.send(**limits.fit("turn post", content=text, embed=embed, view=view))

``fit`` shortens what can be shortened without changing its meaning (text: cut, ending in
"…"; too many fields, select options, embeds, files or mention ids: the first that fit) and
logs a WARNING naming the field, so the cause is found and fixed; what cannot be shortened
(a ``custom_id`` or a select option's value, which the bot reads back) raises
:class:`PayloadRefused` instead of being sent. Autocomplete suggestions go through
:func:`fit_choices`. The same table of limits is enforced by the fake Discord of the tests
(``tests/fakediscord/limits.py``), so a send that forgot ``fit`` fails there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------- the limits
CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
#: All the text of all a message's embeds together.
EMBED_TOTAL = 6000
ROWS = 5
ROW_BUTTONS = 5
LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
CHOICES = 25
CHOICE_TEXT = 100
ATTACHMENTS = 10
ATTACHMENT_DESCRIPTION = 1024
#: User or role ids listed in ``allowed_mentions``.
MENTION_IDS = 100

ELLIPSIS = "…"
#: What an empty embed field shows (Discord refuses an empty field name or value).
BLANK = "\u200b"

_T = TypeVar("_T", str, int, float)


class PayloadRefused(ValueError):
    """A part of a message that cannot be shortened is over Discord's limit: not sent."""


def clip(text: str, limit: int, where: str, field: str) -> str:
    """``text`` cut to ``limit`` characters (ending in "…"), with a WARNING when cut."""
    if len(text) <= limit:
        return text
    log.warning(
        "%s: %s is %d characters, Discord takes %d: shortened", where, field, len(text), limit
    )
    return text[: limit - 1] + ELLIPSIS


def fit(where: str, /, **kwargs: Any) -> dict[str, Any]:
    """The keyword arguments of a send or an edit (``content``, ``embed``/``embeds``,
    ``view``, ``file``/``files``/``attachments``, ``allowed_mentions``; others pass through),
    fitted to Discord's limits. ``where`` names the send in the warnings."""
    out = dict(kwargs)
    content = out.get("content")
    if isinstance(content, str):
        out["content"] = clip(content, CONTENT, where, "content")
    if isinstance(out.get("embed"), discord.Embed):
        fit_embeds(where, [out["embed"]])
    if isinstance(out.get("embeds"), Sequence):
        embeds = list(out["embeds"])
        if len(embeds) > EMBEDS:
            log.warning(
                "%s: %d embeds, Discord takes %d: the first kept", where, len(embeds), EMBEDS
            )
            embeds = embeds[:EMBEDS]
        fit_embeds(where, embeds)
        out["embeds"] = embeds
    if isinstance(out.get("view"), discord.ui.View):
        fit_view(where, out["view"])
    if isinstance(out.get("file"), discord.File):
        fit_files(where, [out["file"]])
    for key in ("files", "attachments"):  # a send's new files; an edit's kept and new ones
        if isinstance(out.get(key), Sequence):
            files = list(out[key])
            if len(files) > ATTACHMENTS:
                log.warning(
                    "%s: %d %s, Discord takes %d: the first kept",
                    where,
                    len(files),
                    key,
                    ATTACHMENTS,
                )
                files = files[:ATTACHMENTS]
            fit_files(where, [f for f in files if isinstance(f, discord.File)])
            out[key] = files
    if isinstance(out.get("allowed_mentions"), discord.AllowedMentions):
        out["allowed_mentions"] = fit_mentions(where, out["allowed_mentions"])
    return out


# ---------------------------------------------------------------------- embeds


def embed_size(embed: discord.Embed, count: Callable[[str], int] = len) -> int:
    """The characters Discord counts toward the 6,000 of a message's embeds (``count``
    measures one text: a stricter count, such as UTF-16 units, leaves a margin)."""
    parts = [embed.title, embed.description, embed.footer.text, embed.author.name]
    parts += [p for f in embed.fields for p in (f.name, f.value)]
    return sum(count(p or "") for p in parts)


def fit_embeds(where: str, embeds: list[discord.Embed]) -> None:
    """Each embed's parts to their limits, then all of them to 6,000 characters together:
    the longest text gives way first, until the whole fits."""
    for n, embed in enumerate(embeds):
        _fit_embed(where, f"embeds[{n}]", embed)
    excess = sum(embed_size(e) for e in embeds) - EMBED_TOTAL
    if excess <= 0:
        return
    log.warning(
        "%s: the embeds hold %d characters, Discord takes %d: shortened",
        where,
        excess + EMBED_TOTAL,
        EMBED_TOTAL,
    )
    while excess > 0:
        text, replace = max((p for e in embeds for p in _texts(e)), key=lambda p: len(p[0]))
        if len(text) <= 1:
            break  # nothing left to cut (cannot happen within Discord's other limits)
        keep = max(0, len(text) - excess - 1)
        replace(text[:keep] + ELLIPSIS)
        excess -= len(text) - (keep + 1)


def _texts(embed: discord.Embed) -> list[tuple[str, Callable[[str], Any]]]:
    """Every text of ``embed`` that counts toward the 6,000, with a way to replace it."""

    def setter(attr: str) -> Callable[[str], Any]:
        return lambda text: setattr(embed, attr, text)

    def field(i: int, part: str) -> Callable[[str], Any]:
        f = embed.fields[i]
        return lambda text: embed.set_field_at(
            i,
            name=text if part == "name" else f.name,
            value=text if part == "value" else f.value,
            inline=bool(f.inline),
        )

    footer, author = embed.footer, embed.author
    out: list[tuple[str, Callable[[str], Any]]] = [
        (embed.title or "", setter("title")),
        (embed.description or "", setter("description")),
        (footer.text or "", lambda text: embed.set_footer(text=text, icon_url=footer.icon_url)),
        (
            author.name or "",
            lambda text: embed.set_author(name=text, url=author.url, icon_url=author.icon_url),
        ),
    ]
    for i, f in enumerate(embed.fields):
        out += [(f.name or "", field(i, "name")), (f.value or "", field(i, "value"))]
    return out


def _fit_embed(where: str, name: str, embed: discord.Embed) -> None:
    if embed.title is not None:
        embed.title = clip(str(embed.title), EMBED_TITLE, where, f"{name}.title")
    if embed.description is not None:
        text = clip(str(embed.description), EMBED_DESCRIPTION, where, f"{name}.description")
        embed.description = text
    if len(embed.fields) > EMBED_FIELDS:
        log.warning(
            "%s: %s has %d fields, Discord takes %d: the first kept",
            where,
            name,
            len(embed.fields),
            EMBED_FIELDS,
        )
        while len(embed.fields) > EMBED_FIELDS:
            embed.remove_field(EMBED_FIELDS)
    for i, field in enumerate(embed.fields):
        label = clip(str(field.name or ""), FIELD_NAME, where, f"{name}.fields[{i}].name")
        value = clip(str(field.value or ""), FIELD_VALUE, where, f"{name}.fields[{i}].value")
        embed.set_field_at(i, name=label or BLANK, value=value or BLANK, inline=bool(field.inline))
    footer = embed.footer
    if footer.text is not None and len(footer.text) > FOOTER:
        text = clip(footer.text, FOOTER, where, f"{name}.footer.text")
        embed.set_footer(text=text, icon_url=footer.icon_url)
    author = embed.author
    if author.name is not None and len(author.name) > AUTHOR:
        text = clip(author.name, AUTHOR, where, f"{name}.author.name")
        embed.set_author(name=text, url=author.url, icon_url=author.icon_url)


# ---------------------------------------------------------------------- components


def fit_view(where: str, view: discord.ui.View) -> None:
    """Labels, placeholders and option texts shortened, options beyond 25 dropped; a
    ``custom_id`` or option value over 100 (which the bot reads back) refused."""
    # discord.py itself refuses a 26th item or a sixth button in a row when they are added.
    for n, child in enumerate(view.children):
        item = getattr(child, "item", child)  # a DynamicItem wraps its button or select
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str) and not 1 <= len(custom_id) <= CUSTOM_ID:
            raise PayloadRefused(f"{where}: components[{n}].custom_id has {len(custom_id)} chars")
        if isinstance(item, discord.ui.Button):
            if item.label is not None:
                item.label = clip(item.label, LABEL, where, f"components[{n}].label")
        elif isinstance(item, discord.ui.Select):
            _fit_select(where, f"components[{n}]", item)
    if len(view.children) > ROWS * ROW_BUTTONS:
        raise PayloadRefused(f"{where}: {len(view.children)} components, Discord takes 25")


def _fit_select(where: str, name: str, select: discord.ui.Select[Any]) -> None:
    if select.placeholder is not None:
        select.placeholder = clip(select.placeholder, PLACEHOLDER, where, f"{name}.placeholder")
    options = list(select.options)
    if len(options) > SELECT_OPTIONS:
        log.warning(
            "%s: %s has %d options, Discord takes %d: the first kept",
            where,
            name,
            len(options),
            SELECT_OPTIONS,
        )
        options = options[:SELECT_OPTIONS]
    for i, option in enumerate(options):
        if not 1 <= len(option.value) <= OPTION_TEXT:
            raise PayloadRefused(
                f"{where}: {name}.options[{i}].value has {len(option.value)} chars"
            )
        label = clip(option.label, OPTION_TEXT, where, f"{name}.options[{i}].label")
        option.label = label or BLANK
        if option.description is not None:
            option.description = clip(
                option.description, OPTION_TEXT, where, f"{name}.options[{i}].description"
            )
    select.options = options
    select.max_values = min(select.max_values, len(options))
    select.min_values = min(select.min_values, select.max_values)


# ---------------------------------------------------------------------- files, mentions, choices


def fit_files(where: str, files: list[discord.File]) -> None:
    for n, file in enumerate(files):
        if file.description is not None:
            field = f"attachments[{n}].description"
            file.description = clip(file.description, ATTACHMENT_DESCRIPTION, where, field)


def fit_mentions(where: str, mentions: discord.AllowedMentions) -> discord.AllowedMentions:
    users, roles = mentions.users, mentions.roles
    if isinstance(users, list) and len(users) > MENTION_IDS:
        log.warning("%s: %d users to mention, Discord takes %d", where, len(users), MENTION_IDS)
        users = users[:MENTION_IDS]
    if isinstance(roles, list) and len(roles) > MENTION_IDS:
        log.warning("%s: %d roles to mention, Discord takes %d", where, len(roles), MENTION_IDS)
        roles = roles[:MENTION_IDS]
    return discord.AllowedMentions(
        everyone=mentions.everyone,
        users=users,
        roles=roles,
        replied_user=mentions.replied_user,
    )


def fit_choices(choices: Sequence[app_commands.Choice[_T]]) -> list[app_commands.Choice[_T]]:
    """Autocomplete suggestions Discord takes: at most 25, names cut to 100 characters,
    and no choice whose text value is over 100 (it could not be sent back as typed)."""
    out: list[app_commands.Choice[_T]] = []
    if len(choices) > CHOICES:
        log.warning(
            "autocomplete: %d choices, Discord takes %d: the first kept", len(choices), CHOICES
        )
    for choice in choices:
        if isinstance(choice.value, str) and not len(choice.value) <= CHOICE_TEXT:
            log.warning(
                "autocomplete: a choice's value has %d characters: left out", len(choice.value)
            )
            continue
        name = clip(choice.name, CHOICE_TEXT, "autocomplete", "choices.name") or BLANK
        out.append(app_commands.Choice(name=name, value=choice.value))
        if len(out) == CHOICES:
            break
    return out
