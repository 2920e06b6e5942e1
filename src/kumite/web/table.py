"""What the web table needs to know about a game beyond the core contract and its spec.

:class:`TableAdapter` is the default for every game: the lobby form from the spec (the seat
role's choices, the seat counts of the game), no card data, plain table talk. A game's own
adapter (its spec's ``table``) subclasses it. Game options are validated by the game.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from kumite.core.choice import Labels, labels_of
from kumite.core.errors import OptionsError
from kumite.core.game import Decision, Game, State
from kumite.core.registry import get_spec
from kumite.core.spec import GameSpec


class TableAdapter:
    """The web table's defaults; games override what they need."""

    set_by_table: tuple[str, ...] = ()
    """Options the table sets itself, kept out of the lobby form, besides those its number of
    seats decides (:meth:`table_set`)."""

    def lobby(self, spec: GameSpec, game: Game[Any]) -> dict[str, Any]:
        """Lobby form data: ``seat_counts`` (those the game takes), ``teams`` (seat count ->
        the declared teams, where some team has several seats), ``seat_field`` (the role:
        option, label, choices) and ``set_by_table``."""
        teams = declared_teams(spec)
        out: dict[str, Any] = {
            "seat_counts": sorted(teams),
            "set_by_table": list(self.table_set(spec)),
        }
        grouped = {n: t for n, t in teams.items() if any(len(team) > 1 for team in t)}
        if grouped:
            out["teams"] = {str(n): [list(team) for team in t] for n, t in grouped.items()}
        if spec.role is not None:
            names = spec.role.names.load()(game, {})
            out["seat_field"] = {
                "option": spec.role.option,
                "label": spec.role.label,
                "choices": [{"id": k, "name": v} for k, v in names.items()],
                "any": spec.role.unset,
            }
        return out

    def table_set(self, spec: GameSpec) -> tuple[str, ...]:
        """The options the table sets itself, kept out of the lobby form: those its number of
        seats decides (what the spec's ``seats`` hook sets: a player count, a mode) and
        :attr:`set_by_table`."""
        counts = declared_teams(spec)
        decided = {key for n in counts for key in spec.with_seats({}, n)}
        return tuple(dict.fromkeys([*self.set_by_table, *sorted(decided)]))

    def cards(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, Any]:
        """Everything the browser needs to draw this table's cards (with provenance)."""
        return {}

    def table_options(
        self, spec: GameSpec, options: Mapping[str, Any], seats: int
    ) -> dict[str, Any]:
        """The options of a new table with that many seats; a role left unset at every seat
        is left out (chosen at the table or dealt)."""
        out = spec.with_seats(options, seats)
        if spec.role is not None and not any(out.get(spec.role.option) or ()):
            out.pop(spec.role.option, None)
        return out

    def chat_channel(self, options: Mapping[str, Any], seat: int) -> str | None:
        """A seat's chat channel (``None``: no chat)."""
        return "table"

    def chat_rules(self, options: Mapping[str, Any], seat: int) -> str | None:
        """The rules of that channel, shown to the seat."""
        return None

    def chat_refusal(
        self, game: Game[Any], options: Mapping[str, Any], view: Mapping[str, Any], text: str
    ) -> str | None:
        """Why a seat (whose view is given) may not send ``text``, decided from that view
        only; ``None``: it may."""
        return None


DEFAULT = TableAdapter()


def declared_teams(spec: GameSpec) -> dict[int, tuple[tuple[int, ...], ...]]:
    """For each number of seats the game takes: its teams, as a new game of that many seats
    declares them (:attr:`~kumite.core.game.State.teams`)."""
    return _declared_teams(spec.id)


@functools.cache
def _declared_teams(game_id: str) -> dict[int, tuple[tuple[int, ...], ...]]:
    spec = get_spec(game_id)
    game = spec.load()
    out = {}
    for n in range(game.info.min_players, game.info.max_players + 1):
        try:
            out[n] = game.new_state(0, spec.with_seats({}, n)).teams
        except OptionsError:
            continue  # a seat count the game does not take (Rivales' 3)
    return out


def adapter(spec: GameSpec) -> TableAdapter:
    """The game's own adapter, else the default."""
    if spec.table is None:
        return DEFAULT
    found: TableAdapter = spec.table.load()
    return found


def choice_labels(spec: GameSpec, game: Game[Any], options: Mapping[str, Any]) -> Labels:
    """The game's labels face for a table with these options (without one: each choice is
    its own label, and targets nothing)."""
    return labels_of(None if spec.labels is None else spec.labels.load()(game, options))


def decision_json(
    labels: Labels, state: State, decision: Decision, view: Mapping[str, Any]
) -> dict[str, Any]:
    """A seat's pending decision as the web protocol sends it to that seat (docs/protocol.md,
    "Choices"): its kind, prompt and legal choices, each choice with its label, its verb and
    the board element it targets, and the choices on the seat's own board that it may not make now,
    each with why (:meth:`~kumite.core.game.State.explain_illegal`). Built from ``view``, the
    seat's own view, and its own decision only: nothing it may not know."""
    legal = decision.legal
    names = labels(view, legal)
    choices = zip(legal, names, labels.verbs(legal), labels.targets(view, legal), strict=True)
    out: dict[str, Any] = {
        "kind": decision.kind,
        "prompt": decision.prompt,
        "legal": list(legal),
        "labels": names,
        "choices": [{"id": c, "label": n, "verb": v, "target": t} for c, n, v, t in choices],
    }
    tries = labels.unplayable(view, legal)
    if tries:
        out["unplayable"] = [
            {"id": c, "target": t, "reason": state.explain_illegal(decision.seat, c)}
            for c, t in zip(tries, labels.targets(view, tries), strict=True)
        ]
    return out
