"""What the web table needs to know about each game, beyond the core contract.

An adapter describes the lobby form (the per-seat choice such as a character, and which
seat counts are allowed) and lists the cards a table uses, for the browser to draw them.
Game options themselves are validated by the game (``Game.parse_options``).
"""

from __future__ import annotations

import importlib
import itertools
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import msgspec

from kumite.core.errors import OptionsError
from kumite.core.game import Game


class WebAdapter(Protocol):
    def lobby(self, game: Game[Any]) -> dict[str, Any]:
        """Lobby form data: ``seat_field`` (name, label, choices), ``seat_counts``, extras,
        and ``set_by_table``: options the table sets itself (kept out of the form)."""
        ...

    def cards(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, Any]:
        """Everything the browser needs to draw this table's cards (with provenance)."""
        ...

    # Optional methods (looked up with getattr, so adapters without them keep working):
    #   table_options(options, seats) -> dict: the options of a new table with that many
    #       seats (SF DBG sets its player count); default: the options as given.
    #   labeler(game, options) -> Labeler: readable labels for a seat's legal choices.
    #   chat_channel(options, seat) -> str | None: a seat's chat channel; default "table".
    #   chat_rules(options, seat) -> str | None: the rules of that channel, shown to the seat.
    #   chat_refusal(game, options, view, text) -> str | None: why a seat (whose view is
    #       given) may not send ``text``; decided from that view only; default: never.


class Labeler(Protocol):
    """What an adapter's optional ``labeler(game, options)`` returns: a label for each legal
    choice of a seat, built from that seat's view only (never more)."""

    def __call__(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[str]: ...


class SFRivalsAdapter:
    def lobby(self, game: Game[Any]) -> dict[str, Any]:
        from kumite.games.sfrivals.game import SFRivals

        assert isinstance(game, SFRivals)
        catalog = game.catalog()
        return {
            "seat_counts": [2],
            "seat_field": {
                "option": "characters",
                "label": "Character",
                "choices": [{"id": c.id, "name": c.name} for c in catalog.characters.values()],
                "any": "chosen at the table",
            },
        }

    def cards(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, Any]:
        from kumite.games.sfrivals.game import SFRivals

        assert isinstance(game, SFRivals)
        catalog = game.catalog(game.parse_options(options))
        return {
            "characters": {c.id: {"name": c.name} for c in catalog.characters.values()},
            "cards": {card.id: card.to_json() for card in catalog.cards.values()},
            "life": catalog.rules.life,
        }


class SFDBGAdapter:
    """The Street Fighter Deck-Building Game: 2-5 seats, a Super Hero per seat (dealt at
    random unless chosen), the variants as a rule option."""

    def lobby(self, game: Game[Any]) -> dict[str, Any]:
        from kumite.games.sfdbg.game import MAX_PLAYERS, MIN_PLAYERS, SFDBG

        assert isinstance(game, SFDBG)
        catalog = game.catalog()
        return {
            "seat_counts": list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
            "seat_field": {
                "option": "heroes",
                "label": "Super Hero",
                "choices": [{"id": h.id, "name": h.name} for h in catalog.heroes],
                "any": "dealt at random",
            },
            "set_by_table": ["players", "first_player"],
        }

    def cards(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, Any]:
        from kumite.cards.provenance import LEGEND
        from kumite.games.sfdbg.game import SFDBG

        assert isinstance(game, SFDBG)
        catalog = game.catalog(game.parse_options(options))
        cards = {}
        for card in catalog.cards:
            data = card.to_json()
            del data["effects"]  # the engine's encoding; the browser shows the text
            cards[card.id] = data
        return {
            "cards": cards,
            "heroes": {h.id: h.to_json() for h in catalog.heroes},
            "kick_cost": catalog.by_id["kick"].cost,
            "legend": LEGEND,
            "pack": catalog.pack.ref(),
        }

    def table_options(self, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
        out = {**options, "players": seats}
        if not any(out.get("heroes") or ()):
            out.pop("heroes", None)  # every Super Hero dealt at random
        return out

    def labeler(self, game: Game[Any], options: Mapping[str, Any]) -> Labeler:
        from kumite.games.sfdbg.game import SFDBG
        from kumite.games.sfdbg.labels import choice_labels

        assert isinstance(game, SFDBG)
        catalog = game.catalog(game.parse_options(options))

        def labels(view: Mapping[str, Any], legal: Sequence[str]) -> list[str]:
            return choice_labels(legal, catalog, view)

        return labels


class RivalesAdapter:
    """Rivales: Capítulo 1 – Justicia: the 1vs1 duel (2 seats) and the 2vs2 team mode (4
    seats, seats 1-2 against 3-4), a fighter per seat (chosen at the table, fixed, or drawn at
    random when the table is made), the rule options; a private chat per team in 2vs2 with
    the companion's communication limits, plain table talk in 1vs1."""

    RANDOM = "random"

    def lobby(self, game: Game[Any]) -> dict[str, Any]:
        from kumite.games.rivales.game import Rivales

        assert isinstance(game, Rivales)
        catalog = game.catalog()
        return {
            "seat_counts": [2, 4],
            "modes": [
                {"id": "1v1", "name": "1vs1 duel", "seats": 2, "teams": [[0], [1]]},
                {
                    "id": "2v2",
                    "name": "2vs2 teams",
                    "seats": 4,
                    "teams": [[0, 1], [2, 3]],
                    "team_names": ["Team A", "Team B"],
                },
            ],
            "mode_option": "mode",
            "seat_field": {
                "option": "fighters",
                "label": "Fighter",
                "choices": [
                    {"id": self.RANDOM, "name": "Random fighter"},
                    *({"id": f.id, "name": f.name} for f in catalog.fighters.values()),
                ],
                "any": "chosen at the table",
            },
            "set_by_table": ["mode"],
        }

    def cards(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, Any]:
        from kumite.cards.provenance import LEGEND
        from kumite.games.rivales.game import Rivales

        assert isinstance(game, Rivales)
        catalog = game.catalog(game.parse_options(options))
        cards = {}
        for card in catalog.cards.values():
            data = card.to_json()
            del data["effects"]  # the engine's encoding; the browser shows the text
            data["requirements"] = list(
                dict.fromkeys(e.requires.describe() for e in card.effects if not e.requires.empty)
            )
            data["immediate"] = bool(card.immediate)
            cards[card.id] = data
        fighters = {}
        for fighter in catalog.fighters.values():
            data = fighter.to_json()
            del data["passive_effects"]
            fighters[fighter.id] = data
        rules = catalog.rules
        return {
            "cards": cards,
            "fighters": fighters,
            "basics": [c.id for c in catalog.basics],
            "rules": msgspec.to_builtins(rules),
            "legend": LEGEND,
            "pack": catalog.pack.ref(),
        }

    def table_options(self, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """The mode follows the seats (2: 1vs1, 4: 2vs2); fighters drawn at random now, so
        that the table's options (and its record) name them."""
        import random

        if seats not in (2, 4):
            raise OptionsError(f"Rivales is played by 2 (1vs1) or 4 (2vs2) seats, got {seats}")
        mode = "2v2" if seats == 4 else "1v1"
        if options.get("mode", mode) != mode:
            raise OptionsError(
                f"rivales {options['mode']} needs {4 if options['mode'] == '2v2' else 2} "
                f"seats, got {seats}"
            )
        out = {**options, "mode": mode}
        fighters = list(out.get("fighters") or ())
        if not any(fighters):
            out.pop("fighters", None)  # every fighter chosen at the table
            return out
        from kumite.games.rivales.cards import load_catalog

        pool = list(load_catalog(out.get("pack")).fighters)
        draw = random.SystemRandom()
        for index, fid in enumerate(fighters):
            if fid == self.RANDOM:
                mates = {fighters[m] for m in range(len(fighters)) if m // 2 == index // 2}
                mates = mates if mode == "2v2" else set()
                fighters[index] = draw.choice([f for f in pool if f not in mates])
        out["fighters"] = fighters
        return out

    def labeler(self, game: Game[Any], options: Mapping[str, Any]) -> Labeler:
        from kumite.games.rivales.game import Rivales
        from kumite.games.rivales.labels import choice_labels

        assert isinstance(game, Rivales)
        catalog = game.catalog(game.parse_options(options))

        def labels(view: Mapping[str, Any], legal: Sequence[str]) -> list[str]:
            return choice_labels(legal, catalog, view)

        return labels

    @staticmethod
    def _teams(options: Mapping[str, Any]) -> bool:
        return options.get("mode") == "2v2"

    def chat_channel(self, options: Mapping[str, Any], seat: int) -> str | None:
        """2vs2: a private channel per team (teammates only); 1vs1: table talk."""
        return f"team-{'ab'[seat // 2]}" if self._teams(options) else "table"

    def chat_rules(self, options: Mapping[str, Any], seat: int) -> str | None:
        from kumite.games.rivales.talk import COMMUNICATION, ENFORCED, TABLE_TALK

        return f"{COMMUNICATION} {ENFORCED}" if self._teams(options) else TABLE_TALK

    def chat_refusal(
        self, game: Game[Any], options: Mapping[str, Any], view: Mapping[str, Any], text: str
    ) -> str | None:
        from kumite.games.rivales.game import Rivales
        from kumite.games.rivales.talk import team_message_refusal

        assert isinstance(game, Rivales)
        if not self._teams(options):
            return None
        return team_message_refusal(text, view, game.catalog(game.parse_options(options)))


ADAPTERS: dict[str, str] = {
    "sfrivals": "kumite.server.adapters:SFRIVALS",
    "sfdbg": "kumite.server.adapters:SFDBG_ADAPTER",
    "rivales": "kumite.server.adapters:RIVALES",
}
SFRIVALS = SFRivalsAdapter()
SFDBG_ADAPTER = SFDBGAdapter()
RIVALES = RivalesAdapter()


def adapter(game_id: str) -> WebAdapter:
    try:
        module, _, attr = ADAPTERS[game_id].partition(":")
    except KeyError:
        raise OptionsError(f"the web table does not offer {game_id!r} yet") from None
    found: WebAdapter = getattr(importlib.import_module(module), attr)
    return found


def option_fields(game: Game[Any], skip: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The game's rule options for the lobby's form (from its options type): those taking
    one of a few named values (``choices``) and whole numbers (``type: int``), each with its
    default and documentation. ``skip``: options the table sets itself."""
    options_type = type(game.parse_options(None))
    if not issubclass(options_type, msgspec.Struct):
        return []
    hints = typing.get_type_hints(options_type)
    defaults = options_type()
    docs = _field_docs(options_type)
    out = []
    for name in options_type.__struct_fields__:
        if name in skip:
            continue
        hint = hints[name]
        field = {"name": name, "default": getattr(defaults, name), "doc": docs.get(name, "")}
        if typing.get_origin(hint) is typing.Literal:
            out.append({**field, "choices": list(typing.get_args(hint))})
        elif hint is int:
            out.append({**field, "type": "int"})
    return out


def _field_docs(cls: type) -> dict[str, str]:
    """Attribute docstrings (the string literal after each field)."""
    import ast
    import inspect
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return {}
    docs: dict[str, str] = {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    for node, following in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[node.target.id] = " ".join(following.value.value.replace("``", "").split())
    return docs
