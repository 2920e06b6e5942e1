"""What the web table needs to know about each game, beyond the core contract.

An adapter describes the lobby form (the per-seat choice such as a character, and which
seat counts are allowed) and lists the cards a table uses, for the browser to draw them.
Game options themselves are validated by the game (``Game.parse_options``).
"""

from __future__ import annotations

import importlib
import itertools
import typing
from collections.abc import Mapping
from typing import Any, Protocol

import msgspec

from kumite.core.errors import OptionsError
from kumite.core.game import Game


class WebAdapter(Protocol):
    def lobby(self, game: Game[Any]) -> dict[str, Any]:
        """Lobby form data: ``seat_field`` (name, label, choices), ``seat_counts``, extras."""
        ...

    def cards(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, Any]:
        """Everything the browser needs to draw this table's cards (with provenance)."""
        ...


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


ADAPTERS: dict[str, str] = {"sfrivals": "kumite.server.adapters:SFRIVALS"}
SFRIVALS = SFRivalsAdapter()


def adapter(game_id: str) -> WebAdapter:
    try:
        module, _, attr = ADAPTERS[game_id].partition(":")
    except KeyError:
        raise OptionsError(f"the web table does not offer {game_id!r} yet") from None
    found: WebAdapter = getattr(importlib.import_module(module), attr)
    return found


def option_fields(game: Game[Any]) -> list[dict[str, Any]]:
    """The game's rule options that take one of a few named values (from its options
    type), for the lobby's form: name, choices, default and the documentation."""
    options_type = type(game.parse_options(None))
    if not issubclass(options_type, msgspec.Struct):
        return []
    hints = typing.get_type_hints(options_type)
    defaults = options_type()
    docs = _field_docs(options_type)
    out = []
    for name in options_type.__struct_fields__:
        hint = hints[name]
        if typing.get_origin(hint) is typing.Literal:
            out.append(
                {
                    "name": name,
                    "choices": list(typing.get_args(hint)),
                    "default": getattr(defaults, name),
                    "doc": docs.get(name, ""),
                }
            )
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
