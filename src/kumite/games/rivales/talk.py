"""Table talk: the 2vs2 companion's limited communication, shared by the terminal and the web.

The companion lets teammates talk in private about what is visible on the table and what the
rival team might do, but "cards in hand may not be shown or named between players of the same
team", and a hand shown by Lluvia de Sombreros may not be passed on ("that player may not tell
their partner which cards you have").

kumite refuses a team message that names one of the sender's cards that *could* be in their
hand: every card of their fighter not visible on the table (not in a line, not the ultra set
aside, not a card left face up by a dodge). Refusing only the cards really in hand would turn
the filter into a messenger — a message that gets through would prove the named card is not in
the sender's hand. Deciding from public information only, a refusal tells the partner nothing:
they cannot see it, and they could have computed it themselves. The same holds for a hand
Lluvia de Sombreros showed the sender: every unseen card of that rival is off limits for the
rest of the round. Everything here reads one seat's view only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kumite.games.rivales.cards import Card, Catalog

COMMUNICATION = (
    "Team talk (2vs2 rules): talk only about what is visible on the table and what the rival "
    "team might do. Do not show or name the cards in your hand; do not count or enumerate the "
    "other team's cards; a hand shown to you by Lluvia de Sombreros stays secret. The zones "
    "are chosen in private: both of you cannot go to the same zone."
)
ENFORCED = (
    "A message naming one of your cards that is not on the table (it could be in your hand), "
    "or an unseen card of a rival who showed you their hand, is not sent."
)
TABLE_TALK = (
    "Table talk between the two fighters: say what you like — bluffing is part of the duel. "
    "Nobody but you sees your hand and your life marker."
)
BOT_PARTNER = "Your partner is a bot: it reads no messages and shares no hand information."


def plain(text: str) -> str:
    """Casefolded, without accents: ``Física`` and ``fisica`` read the same."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def unseen_cards(view: Mapping[str, Any], seat: int, catalog: Catalog) -> list[Card]:
    """The cards of ``seat``'s fighter that the table does not show: in hand, in the deck, the
    life marker, or played face down this clash. Computed from public information only (the
    same for every viewer)."""
    player = view["players"][seat]
    if player["fighter"] is None:
        return []
    fighter = catalog.fighters[player["fighter"]]
    shown: set[str] = set()
    for zone in view["zones"]:
        for line in zone["lines"]:
            for slot in line:
                if slot["owner"] == seat and slot["side"] != "hidden" and slot["card"]:
                    shown.add(slot["card"])
    if player["ready"]:
        shown.add(player["ready"])
    if player["ultra"] in ("aside", "due"):
        shown.add(fighter.ultra.id)
    return [c for c in fighter.cards if c.id not in shown]


def forbidden_cards(view: Mapping[str, Any], catalog: Catalog) -> list[Card]:
    """The cards the viewing seat may not name to its partner."""
    seat = view["seat"]
    if seat is None:
        return []
    out = unseen_cards(view, seat, catalog)
    for p in view["players"]:
        if seat in p.get("shown_to", ()):
            out += unseen_cards(view, p["seat"], catalog)
    return out


def named(text: str, cards: Iterable[Card]) -> Card | None:
    """The first of ``cards`` whose name ``text`` contains as whole words (case and accents
    ignored), or None."""
    words = plain(text)
    for card in cards:
        if re.search(rf"(?<!\w){re.escape(plain(card.name))}(?!\w)", words):
            return card
    return None


def refusal(text: str, forbidden: Sequence[Card]) -> str | None:
    """Why ``text`` breaks the communication rules, or None."""
    card = named(text, forbidden)
    if card is None:
        return None
    return (
        f"you may not name {card.name}: cards in hand may not be shown or named between "
        "teammates (kumite refuses every card of yours not on the table, and the unseen cards "
        "of a rival who showed you their hand)"
    )


def team_message_refusal(text: str, view: Mapping[str, Any], catalog: Catalog) -> str | None:
    """Why the viewing seat may not send ``text`` to its partner, or None."""
    return refusal(text, forbidden_cards(view, catalog))
