"""Typed, validated options of a Rivales fight (rule variants are named rulings)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from kumite.cards.game import Pack
from kumite.core.spec import doc


class Options(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    mode: Annotated[
        Literal["1v1", "2v2"],
        doc("``1v1``: two seats. ``2v2``: four seats, seats 0-1 against seats 2-3."),
    ] = "1v1"
    fighters: Annotated[
        tuple[str | None, ...] | None,
        doc("Fix the seats' fighters (one per seat); a seat left None picks at the table."),
    ] = None
    clash_winner: Annotated[
        Literal["damage", "attacker"],
        doc(
            "Who has 'won a clash' for the boost order: the attacker who dealt Damage "
            "(default), or the attacker whatever the Damage (``rv.ruling.clash-winner``)."
        ),
    ] = "damage"
    max_combo_card: Annotated[
        Literal["energy", "exhausted"],
        doc(
            "The last card of a maximum combo is turned face down as 1 energy (default), or "
            "moved down as an exhausted card (``rv.ruling.max-combo-end``)."
        ),
    ] = "energy"
    max_combo_cut: Annotated[
        Literal["holds", "while-down"],
        doc(
            "The card after a maximum combo starts a new combo: no chain reaches back across "
            "the cut card even once an effect turns it face up again (default), or only while "
            "it is face down (``rv.ruling.max-combo-cut``)."
        ),
    ] = "holds"
    pinzas: Annotated[
        Literal["zone", "facing"],
        doc(
            "2vs2 Pinzas de Mantis binds the rival in its zone next clash (default) or the "
            "rival facing Mulan next clash (``rv.ruling.pinzas-2v2``)."
        ),
    ] = "zone"
    pinzas_dodge: Annotated[
        Literal["stands", "back"],
        doc(
            "A basic card left face up by a dodge when Pinzas de Mantis forbids basic cards: "
            "it is played all the same (default), or goes back to the hand "
            "(``rv.ruling.pinzas-dodge``)."
        ),
    ] = "stands"
    exchanged_card: Annotated[
        Literal["values", "effects"],
        doc(
            "A card swapped in by an exchange (Amague) brings its values but not its immediate "
            "effect (default), or its immediate effects act too (``rv.ruling.exchanged-card``)."
        ),
    ] = "values"
    zone_order: Annotated[
        Literal["winner", "alternate"],
        doc(
            "2vs2: who chooses which zone is boosted and resolved first: the team that won a "
            "clash most recently (default; while nobody has, the teams take turns), or the teams "
            "in turn, Team A on odd clashes (``rv.ruling.zone-order``)."
        ),
    ] = "winner"
    final_round_zones: Annotated[
        Literal["in-order", "together"],
        doc(
            "2vs2 final round: the zones resolve one at a time, so the first Damage caused by "
            "one team alone in the order of the zones wins (default), or Damage by both teams "
            "in the two zones of one clash decides nothing (``rv.ruling.final-round``)."
        ),
    ] = "in-order"
    final_round_limit: Annotated[
        int, doc("Final (sudden-death) rounds played before the fight is declared a draw.")
    ] = 3
    pack: Pack = None
