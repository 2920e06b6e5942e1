"""Rivales in the terminal: the table, the cards, the human agent and the 2vs2 team chat.

The team chat follows the companion's limited-communication rules: teammates may talk about
what is on the table and what the rivals might do, but may not show or name the cards in
their hands, nor count or enumerate the other team's cards. The chat refuses a message that
names a card that could be in the sender's hand (or in a hand Lluvia de Sombreros showed
them), decided from public information only (:mod:`kumite.games.rivales.talk`, shared with the
web table), and shows the rules to every player. A bot teammate reads no messages and shares
no hand information.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from kumite.agents.base import Agent
from kumite.cards.provenance import LEGEND, mark
from kumite.core.errors import OptionsError
from kumite.core.game import Decision, Game
from kumite.games.rivales.cards import Card, Catalog, Fighter
from kumite.games.rivales.choice import Marker, PickFighter, Play
from kumite.games.rivales.game import GAME
from kumite.games.rivales.labels import choice_labels, named
from kumite.games.rivales.rules import RULES
from kumite.games.rivales.talk import (
    BOT_PARTNER,
    COMMUNICATION,
    ENFORCED,
    forbidden_cards,
    refusal,
)
from kumite.tui.console import pick
from kumite.tui.registry import TerminalFrontEnd
from kumite.tui.screen import board

TYPE_STYLE = {"basic": "cyan", "unique": "dark_orange", "ultra": "magenta"}
TYPE_ICON = {"basic": "◆", "unique": "●", "ultra": "⬢"}
SIDE_STYLE = {"up": "", "down": "dim", "exhausted": "dim strike", "hidden": "dim"}


# ------------------------------------------------------------------------------ pieces
def value(obj: Card | Fighter, field: str) -> str:
    """A value with its provenance mark (``3†`` for a reconstructed value)."""
    raw = getattr(obj, field)
    shown = "yes" if raw is True else "no" if raw is False else str(raw)
    return f"{shown}{mark(obj, field)}"


def copies(card: Card, fighter: Fighter | None) -> int:
    """Copies of ``card`` in ``fighter``'s deck (a Rivales deck holds one of each card)."""
    return 1 if fighter is None else sum(1 for c in fighter.cards if c is card) or 1


def card_label(card: Card, *, text: bool = True, fighter: Fighter | None = None) -> Text:
    out = Text()
    out.append(f"{TYPE_ICON[card.type]} {named(card)}", style=f"bold {TYPE_STYLE[card.type]}")
    n = copies(card, fighter)
    if n > 1:
        out.append(f" ×{n}")
    out.append(f"  Speed {value(card, 'speed')}  Damage {value(card, 'damage')}")
    if card.guard:
        out.append(f"  Guard {value(card, 'guard')}")
    if card.link:
        out.append(f"  ⛓ link{mark(card, 'link')}", style="green")
    if text and card.text:
        out.append(f"  — {card.text}{mark(card, 'text')}", style="italic")
    return out


def cards_table(cards: Sequence[Card], title: str, fighter: Fighter | None = None) -> Table:
    """Cards with their values and marks; ``×``: copies in the deck (one of each card)."""
    table = Table(title=title, expand=True)
    for col, justify in (("card", "left"), ("×", "right"), ("type", "left"), ("Spd", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    table.add_column("Dmg", justify="right")
    table.add_column("Grd", justify="right")
    table.add_column("link")
    table.add_column("effect")
    for c in cards:
        table.add_row(
            Text(named(c), style=f"bold {TYPE_STYLE[c.type]}"),
            f"×{copies(c, fighter)}",
            value(c, "type"),
            value(c, "speed"),
            value(c, "damage"),
            value(c, "guard"),
            f"⛓{mark(c, 'link')}" if c.link else "",
            f"{c.text}{mark(c, 'text')}" if c.text else "—",
        )
    return table


def combo_text(fighter: Fighter) -> str:
    """``1st link +1 Speed, 2nd link +1 Damage; maximum combo 2 links``, marked."""
    steps = []
    for i, step in enumerate(fighter.combo, start=1):
        parts = [f"+{v} {k}" for k, v in (("Speed", step.speed), ("Damage", step.damage)) if v]
        parts += [f"+{step.guard} Guard"] if step.guard else []
        ordinal = {1: "1st", 2: "2nd", 3: "3rd"}.get(i, f"{i}th")
        steps.append(f"{ordinal} link {' '.join(parts) or 'no bonus'}")
    return (
        f"{', '.join(steps)}{mark(fighter, 'combo')}; maximum combo {fighter.max_combo} "
        f"link{'s' if fighter.max_combo != 1 else ''}{mark(fighter, 'combo')}"
    )


def fighter_card(fighter: Fighter) -> Text:
    """The fighter card: life bar, ultra icon, combo bonuses, maximum combo and passive."""
    out = Text()
    out.append(named(fighter), style="bold")
    out.append(
        f"  life {value(fighter, 'life')}, ultra icon after {value(fighter, 'ultra_at')} Damage; "
        f"combo: {combo_text(fighter)}\n"
    )
    out.append(f"  {fighter.passive_name}{mark(fighter, 'passive_name')}: ", style="bold")
    out.append(f"{fighter.passive}{mark(fighter, 'passive')}", style="italic")
    return out


def legend() -> Text:
    """What the marks mean: shown under every table that shows one."""
    return Text("\n".join(LEGEND.values()), style="dim")


def life_bar(p: Mapping[str, Any]) -> Text:
    """The life bar: the marker covers what is left; ⬢ marks the ultra icon."""
    total, taken, ultra_at = p["life_max"], p["damage_taken"], p["ultra_at"]
    bar = Text("♥ ")
    for space in range(1, total + 1):
        covered = space > taken
        mark = "⬢" if space == ultra_at else "█"
        bar.append(mark if covered else "·", style="green" if covered else "red")
    bar.append(f" {p['life']}/{total}")
    if p["ko"]:
        bar.append("  K.O.!", style="bold red")
    return bar


def slot_text(slot: Mapping[str, Any], catalog: Catalog, who: str) -> Text:
    side = slot["side"]
    if slot["card"] is None:
        return Text("[?]", style="dim")
    card = catalog.cards[slot["card"]]
    icon = {"up": "", "down": "▼ ", "exhausted": "✕ ", "hidden": "? "}[side]
    label = f"[{icon}{named(card)}{' ⛓' if card.link and side == 'up' else ''}{who}]"
    return Text(label, style=SIDE_STYLE[side] or TYPE_STYLE[card.type])


def render(view: Mapping[str, Any], catalog: Catalog) -> Group:
    """The table as ``view``'s seat (or a spectator) sees it: the heading, each fighter,
    each zone's lines, the fights' totals, then the seat's own hand."""
    names = _team_names(view)
    parts: list[RenderableType] = [_heading(view, names)]
    parts += _fighter_lines(view, catalog)
    parts += _zone_lines(view, catalog, names)
    parts += _fight_lines(view)
    parts += _own_hand(view, catalog)
    if any(p["fighter"] for p in view["players"]):
        parts.append(legend())  # the table shows marked values: say what the marks mean
    return Group(*parts)


def _heading(view: Mapping[str, Any], names: list[str]) -> Text:
    """The round and clash, and the rounds each side has won."""
    if view["phase"] in ("fighter", "over"):
        head = view["phase"].capitalize()
    else:
        head = ("FINAL ROUND" if view["final"] else f"Round {view['round']}") + (
            f" — clash {view['clash']} of {view['clashes_per_round']}"
            if view["clash"]
            else " — set-up"
        )
    won = view["rounds_won"]
    score = f"rounds won: {names[0]} {won[0]} – {won[1]} {names[1]}"
    return Text(f"{head}   {score}", style="bold cyan")


def _fighter_lines(view: Mapping[str, Any], catalog: Catalog) -> list[RenderableType]:
    """Each fighter's life, piles and what is known of its hand, and its fighter card."""
    seat, two = view["seat"], view["mode"] == "2v2"
    parts: list[RenderableType] = []
    for p in view["players"]:
        if p["fighter"] is None:
            continue
        me = p["seat"] == seat
        line = Text(p["who"] + (" (you) " if me else " "), style="bold" if me else "")
        line.append(life_bar(p))
        line.append(f"  hand {p['hand_size']}, deck {p['deck_size']}, ultra {p['ultra']}")
        if two and p["zone"] is not None:
            line.append(f", Zone {p['zone'] + 1}")
        extras = _fighter_extras(p, catalog, me)
        if extras:
            line.append("  [" + "; ".join(extras) + "]", style="yellow")
        parts.append(line)
        fighter = catalog.fighters[p["fighter"]]
        card = Text("    " + ("your fighter card: " if me else "fighter card: "), style="dim")
        card.append(fighter_card(fighter))
        parts.append(card)
    return parts


def _fighter_extras(p: Mapping[str, Any], catalog: Catalog, me: bool) -> list[str]:
    """What else the table shows of a fighter: bonuses, a face-up card, bans, known cards."""
    extras = []
    bonus = {k: v for k, v in p["next_card_bonus"].items() if v}
    if bonus:
        extras.append("next card " + ", ".join(f"+{v} {k}" for k, v in bonus.items()))
    if p["ready"]:
        extras.append(f"face up for this clash: {named(catalog.cards[p['ready']])}")
    if p["no_basic"]:
        extras.append("no basic cards this clash")
    if p.get("known_hand"):
        extras.append(
            "hand shown to you: " + ", ".join(named(catalog.cards[c]) for c in p["known_hand"])
        )
    seen = [c for c in p.get("seen_in_hand", ()) if not me]
    if seen:
        extras.append("in hand, seen by all: " + ", ".join(named(catalog.cards[c]) for c in seen))
    return extras


def _zone_lines(
    view: Mapping[str, Any], catalog: Catalog, names: list[str]
) -> list[RenderableType]:
    """Each zone (2vs2: with its place in the order): each side's line, energy and chain."""
    players, two = view["players"], view["mode"] == "2v2"
    parts: list[RenderableType] = []
    order = view.get("zone_order") or []
    for zone in view["zones"]:
        if two:
            rank = (
                f" (resolved {('first', 'second')[order.index(zone['zone'])]})"
                if zone["zone"] in order
                else ""
            )
            parts.append(Text(f"Zone {zone['zone'] + 1}{rank}", style="bold underline"))
        for t, line in enumerate(zone["lines"]):
            row = Text(f"  {names[t]:<12} ")
            for slot in line:
                owner = "" if not two else f" P{slot['owner'] + 1}"
                row.append(slot_text(slot, catalog, owner))
                row.append(" ")
            chain = zone["chain"][t]
            row.append(f"  energy {zone['energy'][t]}", style="yellow")
            if zone["exhausted"][t]:
                row.append(f", exhausted {zone['exhausted'][t]}", style="dim")
            if chain["links"]:
                starter = players[chain["starter"]]
                row.append(
                    f"  combo chain {chain['links']} link{'s' if chain['links'] > 1 else ''} "
                    f"({starter['fighter_name']}'s)",
                    style="green",
                )
            parts.append(row)
    return parts


def _fight_lines(view: Mapping[str, Any]) -> list[RenderableType]:
    """Each fight's totals of the clash, and who attacks."""
    players, two = view["players"], view["mode"] == "2v2"
    parts: list[RenderableType] = []
    for fight in view["fights"]:
        if fight["stats"] is None:
            continue
        (sa, da, ga), (sb, db, gb) = fight["stats"]
        a, b = (players[s]["who"] for s in fight["seats"])
        zone = f"Zone {fight['zone'] + 1}: " if two else ""
        text = f"  {zone}{a} Speed {sa} Damage {da} Guard {ga}"
        text += f"  vs  {b} Speed {sb} Damage {db} Guard {gb}"
        if fight["attacker"] is not None:
            text += f"  → {players[fight['attacker']]['who']} attacks"
        parts.append(Text(text, style="bold"))
    return parts


def _own_hand(view: Mapping[str, Any], catalog: Catalog) -> list[RenderableType]:
    """The seat's own hand and hidden life marker (nothing for a spectator)."""
    me = next((p for p in view["players"] if p["seat"] == view["seat"]), None)
    if me is None or not me.get("hand"):
        return []
    mine = catalog.fighters[me["fighter"]] if me["fighter"] else None
    parts: list[RenderableType] = [
        cards_table([catalog.cards[c] for c in me["hand"]], "Your hand", mine)
    ]
    if me.get("marker"):
        parts.append(
            Text(f"Your life marker (hidden): {named(catalog.cards[me['marker']])}", style="dim")
        )
    return parts


def _team_names(view: Mapping[str, Any]) -> list[str]:
    players = view["players"]
    if view["mode"] == "2v2":
        return ["Team A", "Team B"]
    return [players[0]["who"], players[1]["who"]]


# ------------------------------------------------------------------------- team chat
class TeamChat:
    """A private channel between the two players of a team (2vs2)."""

    def __init__(self) -> None:
        self.messages: list[tuple[int, str, str]] = []
        """(seat, sender label, text)."""
        self.members: set[int] = set()
        self.read: dict[int, int] = {}

    @staticmethod
    def refused(text: str, forbidden: Sequence[Card]) -> str | None:
        """Why ``text`` breaks the communication rules, or None (:mod:`~.rivales.talk`)."""
        return refusal(text, forbidden)

    def unread(self, seat: int) -> list[tuple[int, str, str]]:
        start = self.read.get(seat, 0)
        self.read[seat] = len(self.messages)
        return [m for m in self.messages[start:] if m[0] != seat]


_CHATS: dict[int, tuple[Mapping[str, Any], dict[int, TeamChat]]] = {}


def team_chat(options: Mapping[str, Any], team: int) -> TeamChat:
    """The chat of ``team`` for the game played with ``options`` (one object per game)."""
    entry = _CHATS.setdefault(id(options), (options, {}))
    return entry[1].setdefault(team, TeamChat())


# ----------------------------------------------------------------------------- human
class HumanRivales:
    """A person choosing at the terminal. Sees only the view of their seat."""

    name = "human"

    def __init__(
        self, console: Console, catalog: Catalog, label: str, chat: TeamChat | None, seat: int
    ) -> None:
        self.console = console
        self.catalog = catalog
        self.label = label
        self.chat = chat
        self.seat = seat
        self.rules_shown = False
        if chat is not None:
            chat.members.add(seat)

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        c = self.console
        kind = decision.kind
        if kind == "fighter":
            fighters = [self.catalog.fighters[PickFighter.parse(x).fighter] for x in decision.legal]
            for f in fighters:
                c.print(
                    Panel(
                        Group(fighter_card(f), cards_table(f.cards[4:], "unique and ultra", f)),
                        title=named(f),
                    )
                )
            c.print(legend())
            chosen = pick(c, f"{self.label}: choose your fighter", fighters, named)
            return PickFighter(chosen.id).format()
        # from here on the log calls the seat by its fighter's name: so do the title and
        # the prompts, "(you)" beside it when one person plays
        who = view["players"][self.seat]["who"]
        name = f"{who} (you)" if self.label.endswith("(you)") else who
        board(c, Panel(render(view, self.catalog), title=name))
        if self.chat is not None and kind in ("zones", "zone-order", "play"):
            self._talk(view)
        mine = self.catalog.fighters.get(view["players"][self.seat]["fighter"] or "")

        def label(card: Card) -> Text:
            return card_label(card, fighter=mine)

        if kind == "marker":
            drawn = [self.catalog.cards[Marker.parse(x).card] for x in decision.legal]
            marker = pick(
                c,
                f"{name}: choose the card that becomes your life marker "
                "(the other 4 are your hand)",
                drawn,
                label,
            )
            return marker.mark
        if kind == "play":
            cards = [self.catalog.cards[Play.parse(x).card] for x in decision.legal]
            return pick(c, f"{name}: play a card face down", cards, label).play
        # zones, zone order, persona, boost, guard and effect choices: the web table's labels
        labels = dict(
            zip(decision.legal, choice_labels(decision.legal, self.catalog, view), strict=True)
        )
        return pick(c, f"{name}: {decision.prompt}", list(decision.legal), labels.__getitem__)

    def _talk(self, view: Mapping[str, Any]) -> None:
        chat = self.chat
        assert chat is not None
        c = self.console
        if not self.rules_shown:
            c.print(Panel(f"{COMMUNICATION}\n{ENFORCED}", title="Team chat", style="cyan"))
            if len(chat.members) == 1:
                c.print(f"[dim]{BOT_PARTNER}[/dim]")
            self.rules_shown = True
        for _, who, text in chat.unread(self.seat):
            c.print(f"[cyan]{who} (to your team):[/cyan] {text}")
        if len(chat.members) == 1:
            return
        me = view["players"][self.seat]
        forbidden = forbidden_cards(view, self.catalog)
        while True:
            text = Prompt.ask(
                "Message to your partner (Enter: no more)",
                console=c,
                default="",
                show_default=False,
            )
            if not text.strip():
                return
            reason = TeamChat.refused(text, forbidden)
            if reason:
                c.print(f"[red]Not sent: {reason}.[/red]")
                continue
            chat.messages.append((self.seat, me["who"], text.strip()))
            chat.read[self.seat] = len(chat.messages)


# ------------------------------------------------------------------------- front end
class RivalesFrontEnd(TerminalFrontEnd):
    """Rivales on the terminal: 1vs1 and 2vs2, any mix of people and bots."""

    def human(
        self, console: Console, game: Game[Any], options: Mapping[str, Any], seat: int, label: str
    ) -> Agent:
        chat = team_chat(options, seat // 2) if options.get("mode") == "2v2" else None
        return HumanRivales(console, GAME.catalog(options), label, chat, seat)

    def render(
        self, game: Game[Any], options: Mapping[str, Any], view: Mapping[str, Any]
    ) -> RenderableType:
        return render(view, GAME.catalog(options))

    def cards(
        self, game: Game[Any], pack: Path | None, only: str | None, as_json: bool
    ) -> RenderableType | dict[str, Any]:
        catalog = GAME.pack_catalog(pack)
        fighters = list(catalog.fighters.values())
        if only is not None:
            if only not in catalog.fighters:
                raise OptionsError(
                    f"unknown fighter {only!r} (one of: {', '.join(catalog.fighters)})"
                )
            fighters = [catalog.fighters[only]]
        cards = list(catalog.basics) + [c for f in fighters for c in f.cards[len(catalog.basics) :]]
        if as_json:
            return GAME.catalog_json(
                catalog,
                fighters=[f.to_json() for f in fighters],
                cards=[c.to_json() for c in cards],
            )
        parts: list[RenderableType] = [
            cards_table(catalog.basics, "Basic cards (in every fighter's deck)")
        ]
        for f in fighters:
            parts.append(
                Panel(
                    Group(fighter_card(f), cards_table(f.cards[len(catalog.basics) :], "", f)),
                    title=f"{named(f)} ({f.id})",
                )
            )
        parts.append(
            Text(
                "×: copies in a fighter's deck (rv.components.deck: 4 basic, 5 unique, 1 ultra, "
                "one of each).",
                style="dim",
            )
        )
        parts.append(legend())
        parts.append(
            Text(
                f"Pack {catalog.pack.id} {catalog.pack.version}: no public source prints the card "
                "values; names from the rulebook, every other value reconstructed (see the pack).",
                style="dim",
            )
        )
        return Group(*parts)


FRONT_END = RivalesFrontEnd()
__all__ = ["COMMUNICATION", "FRONT_END", "RULES", "HumanRivales", "TeamChat", "render", "team_chat"]
