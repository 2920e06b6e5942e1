"""Game options from the command line, for every game alike, from its declared spec.

``--pick X,Y`` fixes each seat's role (``-`` or ``any``: unset); ``--option KEY=VALUE`` (or
``--rule``) sets a declared option, its value read by the option's type; the role's own flag
(``--characters``) and the spec's shorthands (``--mode V``) are aliases of these; ``--pack``
loads a user's overlay pack.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from kumite.cards.game import PackGame
from kumite.cli.common import split_list
from kumite.core.errors import OptionsError
from kumite.core.game import Game
from kumite.core.registry import specs
from kumite.core.spec import GameSpec

UNSET = ("-", "any")

PickOpt = Annotated[
    str | None,
    typer.Option(
        "--pick",
        help="Each seat's character, fighter or hero, e.g. ryu,ken (- leaves one unset). "
        "Each game's own name works too: "
        + ", ".join(f"--{s.role.option} ({s.id})" for s in specs().values() if s.role is not None)
        + ".",
    ),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "--rule",
        "-o",
        help="Game option KEY=VALUE, e.g. ultra_rule=power (kumite games --json lists them; "
        "see docs/rulings.md). Shorthands: "
        + ", ".join(f"--{flag} V ({s.id})" for s in specs().values() for flag in s.flags)
        + ".",
    ),
]


@dataclasses.dataclass(frozen=True)
class PlaySettings:
    """The game-related flags of ``play``, ``sim`` and ``match``."""

    pick: list[str] = dataclasses.field(default_factory=list)
    """The role of each seat (``-``/``any``: chosen at the table or dealt)."""
    options: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """``--option KEY=VALUE`` settings, as typed."""
    pack: Path | None = None
    """A user's overlay pack file."""


def parse_pairs(items: Sequence[str], flag: str = "--option/--rule") -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, val = item.partition("=")
        if not sep or not key.strip():
            raise OptionsError(f"{flag} needs KEY=VALUE, got {item!r}")
        out[key.strip()] = val.strip()
    return out


def settings_from(
    spec: GameSpec,
    pick: str | None,
    options: Sequence[str],
    pack: Path | None,
    extra: Sequence[str] = (),
) -> PlaySettings:
    """The settings of a command line; ``extra``: the game's own flags (the role's flag,
    the spec's shorthands), as ``--flag value`` or ``--flag=value``."""
    picks = split_list(pick)
    pairs = parse_pairs(options)
    role_flag = None if spec.role is None else spec.role.option
    rest = list(extra)
    while rest:
        word = rest.pop(0)
        name, sep, value = word.removeprefix("--").partition("=")
        if not word.startswith("--") or (name != role_flag and name not in spec.flags):
            known = [f"--{f}" for f in (*([role_flag] if role_flag else []), *spec.flags)]
            raise OptionsError(
                f"no option {word!r} for {spec.id}"
                + (f" (its own: {', '.join(known)})" if known else "")
            )
        if not sep:
            if not rest:
                raise OptionsError(f"--{name} needs a value")
            value = rest.pop(0)
        if name == role_flag:
            picks = split_list(value)
        else:
            pairs[spec.flags[name]] = value
    return PlaySettings(picks, pairs, pack)


def game_options(
    spec: GameSpec, game: Game[Any], settings: PlaySettings, players: int
) -> dict[str, Any]:
    """The options of a game of ``players`` seats, JSON-able, as stored in records."""
    fields = {f.name: f for f in spec.option_fields() if f.kind != "other"}
    out: dict[str, Any] = {}
    for key, raw in settings.options.items():
        field = fields.get(key)
        if field is None:
            known = ", ".join(fields) or "none"
            raise OptionsError(f"unknown option {key!r} for {spec.id} (known: {known})")
        out[key] = field.parse(raw)
    out = spec.with_seats(out, players)
    if settings.pick:
        role = spec.role
        if role is None:
            raise OptionsError(f"{spec.name} has no role to pick per seat")
        if len(settings.pick) != players:
            raise OptionsError(
                f"--{role.option} needs one {role.label.lower()} per seat ({players}), "
                f"{UNSET[0]} for one {role.unset}"
            )
        out[role.option] = [None if p in UNSET else p for p in settings.pick]
    if settings.pack is not None:
        if not isinstance(game, PackGame):
            raise OptionsError(f"{spec.name} has no card packs")
        out["pack"] = game.read_overlay(str(settings.pack))
    return out
