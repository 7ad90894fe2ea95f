"""What a person does in Discord, turned into the interactions Discord would send.

A slash command is typed against the schema the bot synced (so ``seats=4`` goes out as an
integer option and ``user=bob`` carries ``resolved`` data), autocomplete marks one option
``focused``, and clicks and selects are checked against the components stored on the
message, the way Discord's client only lets people use what is on screen. Each action
returns an ``Invocation`` that waits for the bot's answers without sleeping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .models import JSON, FakeChannel, FakeFile, FakeMessage, FakeRole, FakeUser

if TYPE_CHECKING:
    from .server import FakeDiscord, InteractionRecord, Rejection

#: How long a test waits for the bot to do what it should (answer, post, edit). Generous on
#: purpose: a wait that is met returns at once, so only a failing test pays it, while a short
#: one fails a correct test on a busy machine (the suite beside other jobs at load 8 did).
#: Tests that prove something does NOT happen wait on an event instead of a clock.
DEFAULT_TIMEOUT = 30.0
SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3, 4, 5, 6, 7, 8, 9, 10, 11,
)  # fmt: skip


@dataclass(eq=False)
class Answer:
    """The bot's first answer to an interaction (callback type, and its message if any)."""

    type: int
    data: JSON
    message: FakeMessage | None
    files: list[FakeFile]

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral


class Invocation:
    """One interaction a test user started; await the bot's answers to it."""

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self.fake = fake
        self.record = record

    def __repr__(self) -> str:
        return f"<Invocation {self.record.name} by {self.record.user.name}>"

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def payload(self) -> JSON:
        """The INTERACTION_CREATE data exactly as the bot received it."""
        return self.record.payload

    @property
    def rejections(self) -> list[Rejection]:
        """Answers to this interaction the fake refused (10062 late, 40060 twice, ...)."""
        return self.record.rejections

    @property
    def followups(self) -> list[FakeMessage]:
        return self.record.followups

    def _explain(self) -> str:
        refused = ", ".join(f"{r.status}/{r.code} {r.message}" for r in self.rejections)
        return f"{self.record.name} by {self.record.user.name}" + (
            f" (refused: {refused})" if refused else ""
        )

    async def answer(self, timeout: float = DEFAULT_TIMEOUT) -> Answer:
        """Wait for the first answer (callback) the bot gave."""
        record = self.record
        await self.fake.wait_for(
            lambda: record.callback_type is not None,
            timeout=timeout,
            on=record,
            what=f"the bot to answer {self._explain()}",
        )
        assert record.callback_type is not None
        return Answer(
            record.callback_type, record.callback_data or {}, record.original, record.callback_files
        )

    async def message(self, timeout: float = DEFAULT_TIMEOUT) -> FakeMessage:
        """The message this interaction shows once it is no longer "thinking". After a
        silent acknowledgement of a click (type 6), what the user reads next: the first
        followup, or the clicked message once the bot edited it."""
        record = self.record

        def ready() -> FakeMessage | None:
            shown = record.original
            if record.callback_type == 6:
                if record.followups:
                    return record.followups[0]
                edited = shown is not None and shown.edits > record.source_edits_at_answer
                return shown if edited else None
            return shown if shown is not None and not shown.loading else None

        return await self.fake.wait_for(
            ready, timeout=timeout, what=f"a message answering {self._explain()}", on=record
        )

    async def followup(self, index: int = 0, timeout: float = DEFAULT_TIMEOUT) -> FakeMessage:
        """The ``index``-th followup (after a deferral the first one is the edited original)."""
        record = self.record
        return await self.fake.wait_for(
            lambda: record.followups[index] if len(record.followups) > index else None,
            timeout=timeout,
            on=record,
            what=f"followup #{index} to {self._explain()}",
        )

    async def rejection(self, timeout: float = DEFAULT_TIMEOUT) -> Rejection:
        """Wait until the fake refuses an answer to this interaction."""
        record = self.record
        return await self.fake.wait_for(
            lambda: record.rejections[0] if record.rejections else None,
            timeout=timeout,
            on=record,
            what=f"a refused answer to {self._explain()}",
        )


# ---------------------------------------------------------------------- slash commands


def _find_command(fake: FakeDiscord, name: str, channel: FakeChannel) -> JSON:
    guild_commands = {} if channel.is_dm else fake.commands(guild=True)
    command = guild_commands.get(name) or fake.commands().get(name)
    if command is None or command.get("type", 1) != 1:
        synced = sorted({*fake.commands(), *guild_commands})
        raise LookupError(f"/{name} is not a synced slash command; synced: {synced}")
    if channel.is_dm:
        contexts = command.get("contexts")
        if command.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
            raise PermissionError(f"/{name} cannot be used in DMs")
    return command


def _command_data(
    fake: FakeDiscord,
    path: str,
    channel: FakeChannel,
    options: dict[str, Any],
    focused: str | None = None,
    *,
    forged: bool = False,
) -> JSON:
    """The ``data`` of a type 2/4 interaction, with options typed by the synced schema
    (``forged``: values sent as given, unchecked, as a modified client could)."""
    name, *subpath = path.split()
    command = _find_command(fake, name, channel)
    data: JSON = {"id": command["id"], "name": name, "type": 1}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    holder, schema = data, command.get("options") or []
    for part in subpath:
        sub = next(
            (o for o in schema if o["name"] == part and o["type"] in (SUBCOMMAND, GROUP)), None
        )
        if sub is None:
            names = [o["name"] for o in schema if o["type"] in (SUBCOMMAND, GROUP)]
            raise LookupError(f"/{path}: no subcommand {part!r}; there is {names}")
        node: JSON = {"name": part, "type": sub["type"], "options": []}
        holder.setdefault("options", []).append(node)
        holder, schema = node, sub.get("options") or []
    if any(o["type"] in (SUBCOMMAND, GROUP) for o in schema):
        names = [o["name"] for o in schema]
        raise LookupError(f"/{path} is a group; name a subcommand: {names}")

    known = {o["name"]: o for o in schema}
    unknown = sorted({*options, *([focused] if focused else [])} - set(known))
    if unknown:
        raise TypeError(f"/{path} has no option {unknown}; has {sorted(known)}")
    resolved: JSON = {}
    typed: list[JSON] = []
    for spec in schema:
        option_name = spec["name"]
        if option_name == focused:
            if not spec.get("autocomplete"):
                raise TypeError(f"/{path} option {option_name!r} has no autocomplete")
            # Discord sends what the user has typed so far, as text, whatever the type.
            raw = options.get(option_name, "")
            typed.append(
                {"name": option_name, "type": spec["type"], "value": str(raw), "focused": True}
            )
        elif option_name in options and forged:
            value = _forged_value(fake, spec, options[option_name], resolved)
            typed.append({"name": option_name, "type": spec["type"], "value": value})
        elif option_name in options:
            value = _typed_value(fake, path, spec, options[option_name], resolved)
            typed.append({"name": option_name, "type": spec["type"], "value": value})
        elif spec.get("required") and focused is None:
            raise TypeError(f"/{path} needs option {option_name!r}")
    holder["options"] = typed
    if resolved:
        data["resolved"] = resolved
    return data


def _typed_value(fake: FakeDiscord, path: str, spec: JSON, value: Any, resolved: JSON) -> Any:
    kind, name = spec["type"], spec["name"]
    where = f"/{path} option {name!r}"
    if kind == STRING:
        if not isinstance(value, str):
            raise TypeError(f"{where} is a string, got {value!r}")
        if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
            raise ValueError(f"{where}: length of {value!r} is out of bounds")
    elif kind == INTEGER:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{where} is an integer, got {value!r}")
    elif kind == NUMBER:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise TypeError(f"{where} is a number, got {value!r}")
        value = float(value)
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise TypeError(f"{where} is a boolean, got {value!r}")
    elif kind in (USER, MENTIONABLE) and isinstance(value, FakeUser):
        resolved.setdefault("users", {})[str(value.id)] = value.to_payload()
        member = value.member_payload(permissions=0)
        del member["user"]  # resolved members come without their user; discord.py joins them
        resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    elif kind in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
        resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
        return str(value.id)
    elif kind == CHANNEL and isinstance(value, FakeChannel):
        allowed = spec.get("channel_types")
        if allowed is not None and value.to_payload()["type"] not in allowed:
            raise ValueError(f"{where} does not accept channel {value.name!r}")
        entry = value.to_payload()
        entry["permissions"] = str(fake.permissions_for(fake.bot_user, value))
        resolved.setdefault("channels", {})[str(value.id)] = entry
        return str(value.id)
    elif kind == ATTACHMENT and isinstance(value, FakeFile):
        attachment = fake.new_attachment(value)
        fake.loose_attachments[attachment.id] = attachment
        resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.to_payload()
        return str(attachment.id)
    else:
        raise TypeError(f"{where} has type {kind}; cannot send {value!r}")
    if kind in (INTEGER, NUMBER):
        low, high = spec.get("min_value"), spec.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"{where}: {value!r} is outside [{low}, {high}]")
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"{where}: {value!r} is not one of {[c['value'] for c in choices]}")
    return value


def _forged_value(fake: FakeDiscord, spec: JSON, value: Any, resolved: JSON) -> Any:
    """A forged option's value: people, roles and channels still resolved (Discord fills
    ``resolved`` itself), anything else sent exactly as given."""
    if isinstance(value, FakeUser | FakeRole | FakeChannel | FakeFile):
        return _typed_value(fake, "forged", spec, value, resolved)
    return value


async def run_slash(
    user: FakeUser,
    path: str,
    channel: FakeChannel | None,
    options: dict[str, Any],
    *,
    forged: bool = False,
) -> Invocation:
    fake = user.fake
    where = channel or fake.dm_channel(user)
    data = _command_data(fake, path, where, options, forged=forged)
    _check_shown(fake, user, where, path, forged=forged)
    record = fake.start_interaction(2, user, where, data, name=f"/{path}")
    return Invocation(fake, record)


def _check_shown(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, path: str, *, forged: bool
) -> None:
    """A server member's client shows a command only with every permission of its
    ``default_member_permissions`` ("the set of permissions a user needs in order to use the
    command", https://docs.discord.com/developers/interactions/application-commands#permissions);
    a forged call (``forge_slash``) skips the client, to reach the bot's own check."""
    name = path.split()[0]
    needed = int(_find_command(fake, name, channel).get("default_member_permissions") or 0)
    if forged or channel.is_dm or not needed:
        return
    if fake.permissions_for(user, channel) & needed != needed:
        raise PermissionError(f"/{name} is not shown to {user.name}: default_member_permissions")


async def run_autocomplete(
    user: FakeUser,
    path: str,
    channel: FakeChannel | None,
    focused: str,
    options: dict[str, Any],
    timeout: float,
) -> list[JSON]:
    fake = user.fake
    where = channel or fake.dm_channel(user)
    data = _command_data(fake, path, where, options, focused=focused)
    record = fake.start_interaction(4, user, where, data, name=f"autocomplete /{path} {focused}")
    invocation = Invocation(fake, record)
    await invocation.answer(timeout)
    return list(record.choices or [])


# ---------------------------------------------------------------------- components


def _usable_message(user: FakeUser, message: FakeMessage) -> FakeChannel:
    if message.deleted:
        raise LookupError(f"message {message.id} was deleted")
    if message.visible_to is not None and message.visible_to != user.id:
        raise PermissionError(f"{user.name} cannot see someone else's ephemeral message")
    return user.fake.channels[message.channel_id]


async def run_click(
    user: FakeUser, message: FakeMessage, *, label: str | None, custom_id: str | None
) -> Invocation:
    channel = _usable_message(user, message)
    button = message.button(label, custom_id=custom_id)
    if button.get("disabled"):
        raise PermissionError(f"button {button.get('label')!r} is disabled")
    if "custom_id" not in button:
        raise ValueError(f"button {button.get('label')!r} is a link, not an interaction")
    data = {"custom_id": button["custom_id"], "component_type": 2}
    record = user.fake.start_interaction(
        3, user, channel, data, name=f"click {button.get('label')!r}", source=message
    )
    return Invocation(user.fake, record)


async def run_forged(
    user: FakeUser, message: FakeMessage, *, custom_id: str, values: list[str] | None
) -> Invocation:
    """A component interaction on ``message`` naming a ``custom_id`` the message does not
    carry. Discord delivers its own copy of the message with the interaction, and discord.py
    only dispatches a custom_id found on it, so the copy delivered here carries one more action
    row holding the forged component: the case where the bot can rely on nothing but its own
    check (a modified client, a copied or misplaced message). The user and the channel are
    the real ones."""
    channel = _usable_message(user, message)
    data: JSON = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    component: JSON = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
    if values is not None:
        data["values"] = list(values)
        options = [{"label": v, "value": v} for v in values]
        component = {"type": 3, "custom_id": custom_id, "options": options}
    delivered = message.to_payload()
    delivered["components"] = [
        *delivered.get("components", []),
        {"type": 1, "components": [component]},
    ]
    record = user.fake.start_interaction(
        3, user, channel, data, name=f"forged {custom_id!r}", source=message,
        message_payload=delivered,
    )  # fmt: skip
    return Invocation(user.fake, record)


async def run_select(
    user: FakeUser, message: FakeMessage, *, values: list[str], custom_id: str | None
) -> Invocation:
    channel = _usable_message(user, message)
    selects = [s for s in message.selects if custom_id is None or s.get("custom_id") == custom_id]
    if len(selects) != 1:
        found = [s.get("custom_id") for s in message.selects]
        raise LookupError(f"need exactly one select matching {custom_id!r}; message has {found}")
    select = selects[0]
    if select["type"] != 3:
        raise NotImplementedError("only string selects are simulated so far")
    if select.get("disabled"):
        raise PermissionError("the select is disabled")
    offered = [o["value"] for o in select.get("options", [])]
    if not set(values) <= set(offered):
        raise ValueError(f"{values} are not all among the options {offered}")
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not low <= len(values) <= high:
        raise ValueError(f"pick between {low} and {high} options, not {len(values)}")
    data = {"custom_id": select["custom_id"], "component_type": 3, "values": list(values)}
    record = user.fake.start_interaction(
        3, user, channel, data, name=f"select {values}", source=message
    )
    return Invocation(user.fake, record)
