"""One name per seat, everywhere (docs/protocol.md, "Names"): the one place that makes the
name every message and REST answer shows for a seat — a person by the name they chose, a bot
by its character (where the table's options give its seat one) and its level ("Ryu bot ·
Strong"), two seats that would read alike told apart ("(2)") — and the marks relative to
whoever looks ("you"; "partner" and "rival" where the game has teams).

The faces show what is made here and never name a seat themselves. Names are made from
public facts only: the seats, and the options every seat sees (a character an option fixes);
a character chosen at the table is never guessed from anyone's view.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from kumite.agents.registry import agent_info, describe, level
from kumite.core.registry import get_spec, specs
from kumite.server.storage import Seat

BOT = "Bot"
"""A bot's name where its seat has no character."""


@dataclasses.dataclass(frozen=True, slots=True)
class SeatName:
    """How a seat is called, the same for everyone who looks."""

    name: str
    """Its name, different from every other seat's at the table."""
    title: str
    """More about it, for a tooltip: a bot's technical name and certified figure."""
    team: int | None
    """Its team (an index of ``State.teams``) where the game plays in teams, else ``None``."""
    level: str | None = None
    """A bot's level (``Strong``), else ``None``."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "team": self.team, "level": self.level}


def seat_names(
    game_id: str,
    options: Mapping[str, Any],
    seats: Sequence[Seat | Mapping[str, Any]],
    teams: Sequence[Sequence[int]] | None = None,
    stand_ins: Mapping[int, str] | None = None,
) -> list[SeatName]:
    """The name of each seat of a table of ``game_id`` with ``options`` (``teams``: the
    game's ``State.teams``, if known; ``stand_ins``: seat -> the bot playing for an absent
    person)."""
    key = json.dumps(options, sort_keys=True, default=str)
    characters = _characters(game_id, key, len(seats))
    team_of = _team_of(teams)
    made: list[tuple[str, str, str | None]] = []
    for index, raw in enumerate(seats):
        seat = Seat.of(raw)
        if seat.kind == "bot":
            agent = seat.agent or "random"
            info = _bot(game_id, agent, key)
            level = str(info["level"])
            own = seat.name if seat.name and seat.name != f"{agent} bot" else None
            base = own or (f"{characters[index]} bot" if characters[index] else BOT)
            made.append((f"{base} · {level}", _bot_title(info), level))
        else:
            name = seat.name or f"Player {index + 1}"
            title = "a person" if seat.claimed else "an open seat"
            helper = (stand_ins or {}).get(index)
            if helper is not None:
                title += f"; a {_bot(game_id, helper, key)['level']} bot plays for them now"
            made.append((name, title, None))
    names = distinct([name for name, _, _ in made])
    return [
        SeatName(name, title, team_of.get(i), level)
        for i, (name, (_, title, level)) in enumerate(zip(names, made, strict=True))
    ]


def distinct(names: Sequence[str]) -> list[str]:
    """``names`` with each one that reads like an earlier one (a mirror match's two "Ryu bot ·
    Strong", two people called Ana) told apart by its count: "Ryu bot · Strong (2)"."""
    out: list[str] = []
    seen: set[str] = set()
    for name in names:
        shown, count = name, 1
        while shown.casefold() in seen:
            count += 1
            shown = f"{name} ({count})"
        seen.add(shown.casefold())
        out.append(shown)
    return out


def marks(names: Sequence[SeatName], viewer: int | None) -> list[str]:
    """What each seat is to ``viewer`` (``None``: a spectator): ``you``; in a team game
    ``partner`` or ``rival`` (a spectator reads ``team 1``, ``team 2``); else nothing."""
    teams = any(n.team is not None for n in names)
    mine = None if viewer is None or not 0 <= viewer < len(names) else names[viewer].team
    out = []
    for seat, n in enumerate(names):
        if seat == viewer:
            out.append("you")
        elif not teams or n.team is None:
            out.append("")
        elif viewer is None:
            out.append(f"team {n.team + 1}")
        else:
            out.append("partner" if n.team == mine else "rival")
    return out


def labelled(name: str, mark: str) -> str:
    """A seat's name with its mark: "Ana (partner)"."""
    return f"{name} ({mark})" if mark else name


def result_line(
    outcome: Mapping[str, Any] | None, names: Sequence[SeatName], viewer: int | None
) -> str | None:
    """The result as ``viewer`` reads it: "Ana (you) & Bo (partner) win", "Draw"."""
    if outcome is None:
        return None
    if outcome.get("draw"):
        return "Draw"
    winners = [w for w in outcome.get("winners") or () if 0 <= w < len(names)]
    if not winners:
        return "Nobody wins"
    shown = marks(names, viewer)
    who = " & ".join(labelled(names[w].name, shown[w]) for w in winners)
    return f"{who} {'win' if len(winners) > 1 else 'wins'}"


def listed(table: dict[str, Any]) -> dict[str, Any]:
    """A table as a list shows it (the lobby, "My games": :func:`storage._listed`), its seats
    named here."""
    names = seat_names(table["game"], table.get("options") or {}, table["seats"])
    seats = [{**seat, **n.to_json()} for seat, n in zip(table["seats"], names, strict=True)]
    return {**table, "seats": seats}


def bot_label(game_id: str, agent: str) -> tuple[str, str]:
    """A bot kind as the leaderboard lists it ("Bot · Strong") and its tooltip."""
    info = _bot(game_id, agent, "{}")
    return f"{BOT} · {info['level']}", _bot_title(info)


def _team_of(teams: Sequence[Sequence[int]] | None) -> dict[int, int]:
    """Seat -> team, where some team has more than one seat (else nobody is a partner)."""
    if not teams or all(len(t) < 2 for t in teams):
        return {}
    return {seat: t for t, members in enumerate(teams) for seat in members}


def _bot_title(info: Mapping[str, Any]) -> str:
    parts = [f"{info['level']} bot: {info['name']}"]
    if info.get("about"):
        parts.append(str(info["about"]))
    figure = info.get("certified_exploitability")
    if isinstance(figure, int | float):
        parts.append(f"certified exploitability at most {figure:.3g}")
    return " — ".join(parts)


@functools.lru_cache(maxsize=512)
def _bot(game_id: str, agent: str, options: str) -> Mapping[str, Any]:
    """:func:`agent_info` of a bot at a table with these options (JSON): read once."""
    try:
        return agent_info(agent, game_id, json.loads(options))
    except Exception:  # a bot's certificate unreadable (a pack of its own, say): no figure
        spec = specs().get(game_id)
        about = "" if spec is None else describe(spec, agent)
        return {"name": agent, "about": about, "level": level(spec, agent)}


@functools.lru_cache(maxsize=512)
def _characters(game_id: str, options: str, seats: int) -> tuple[str | None, ...]:
    """Each seat's character, where the table's options fix it (the role's option), by
    its name for people."""
    none: tuple[str | None, ...] = (None,) * seats
    spec = specs().get(game_id)
    if spec is None or spec.role is None:
        return none
    fixed = json.loads(options).get(spec.role.option)
    if not isinstance(fixed, list):
        return none
    try:
        names = spec.role.names.load()(get_spec(game_id).load(), json.loads(options))
    except Exception:  # options a game refuses: no character is known
        return none
    return tuple(
        names.get(fixed[i]) if i < len(fixed) and isinstance(fixed[i], str) else None
        for i in range(seats)
    )
