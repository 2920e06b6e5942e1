"""The SF Rivals state machine: character pick, set-up, eight rounds of reveals."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Self

from kumite.core.choice import ChoiceSyntaxError
from kumite.core.decision import pending_view
from kumite.core.errors import MalformedChoiceError
from kumite.core.events import Event
from kumite.core.game import Decision, Outcome, State
from kumite.games.sfrivals import events as ev
from kumite.games.sfrivals.cards import Card, Catalog, Character
from kumite.games.sfrivals.choice import PickCharacter, Play, SetUp, parse
from kumite.games.sfrivals.legal import (
    fight_end,
    held,
    is_stuck,
    playable_choices,
    powerless_reason,
)
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.resolve import NO_CARRY, Carry, resolve_round

if TYPE_CHECKING:
    from kumite.games.sfrivals.game import SFRivals

MAX_CHARACTERS = 16
CARD_SLOTS = 10
A_CHARACTER = 0
A_PLAY = MAX_CHARACTERS
A_SETUP = A_PLAY + CARD_SLOTS
NUM_ACTIONS = A_SETUP + CARD_SLOTS * CARD_SLOTS

CHARACTER, SETUP, PLAY, OVER = "character", "setup", "play", "over"

#: Decisions are immutable, so the engine reuses them: (seat, kind, legal) -> decision.
_DECISIONS: dict[tuple[int, str, tuple[str, ...]], Decision] = {}
#: Events about rounds after this one, dropped when the fight ends with this round.
_LATER_ROUNDS = (ev.NextRoundBonus, ev.RevealFirstNext, ev.RevealFirstVoided, ev.LastingEffect)
_PROMPTS = {
    "play": "Play a card face down",
    "play-first": "Play a card: it is revealed before your opponent chooses",
}


class SFRState(State):
    """One position of an SF Rivals fight. Seats are 0 and 1."""

    def __init__(self, game: SFRivals, seed: int, options: Options, catalog: Catalog) -> None:
        self.game = game
        self.seed = seed
        self.history = []
        self.opts = options
        self.catalog = catalog
        self.life_max = catalog.rules.life
        self.hand_size = catalog.rules.hand
        self.chars: list[Character | None] = [None, None]
        self.hands: list[tuple[int, ...]] = [(), ()]
        """Copies in hand per card type (indexed like ``Character.cards``)."""
        self.cover: list[Card | None] = [None, None]
        self.shown: list[Card | None] = [None, None]
        self.played: list[list[Card]] = [[], []]
        self.lives = [self.life_max, self.life_max]
        self.carry: list[Carry] = [NO_CARRY, NO_CARRY]
        self.reveal_first = [False, False]
        """Seat must reveal its card first this round."""
        self.early: list[Card | None] = [None, None]
        self.round = 0
        self.phase = CHARACTER
        self._outcome: Outcome | None = None
        self._pending: tuple[Decision, ...] | None = None
        if options.characters is not None:
            for seat, char_id in enumerate(options.characters):
                if char_id is not None:
                    self.chars[seat] = catalog.characters[char_id]
        if self.chars[0] is not None and self.chars[1] is not None:
            self.phase = SETUP

    # -- contract -----------------------------------------------------------------------
    @property
    def players(self) -> tuple[int, ...]:
        return (0, 1)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = [dict(step) for step in self.history]  # shares no mutable object
        other.chars = list(self.chars)
        other.hands = list(self.hands)
        other.cover = list(self.cover)
        other.shown = list(self.shown)
        other.played = [list(self.played[0]), list(self.played[1])]
        other.lives = list(self.lives)
        other.carry = list(self.carry)
        other.reveal_first = list(self.reveal_first)
        other.early = list(self.early)
        return other

    def pending(self) -> tuple[Decision, ...]:
        if self._pending is None:
            self._pending = self._compute_pending()
        return self._pending

    def _compute_pending(self) -> tuple[Decision, ...]:
        if self.phase == OVER:
            return ()
        if self.phase == CHARACTER:
            legal = self.catalog.character_choices
            return tuple(
                Decision(s, "character", legal, "Choose your character")
                for s in (0, 1)
                if self.chars[s] is None
            )
        if self.phase == SETUP:
            return tuple(
                Decision(
                    s,
                    "setup",
                    self._character(s).setup_choices,
                    "Choose the card to cover your life gauge and the card to show",
                )
                for s in (0, 1)
            )
        first = self._first_revealer()
        if first is not None:
            return (self._play_decision(first, "play-first"),)
        if self.early[0] is None and self.early[1] is None:
            return (self._play_decision(0, "play"), self._play_decision(1, "play"))
        return tuple(self._play_decision(s, "play") for s in (0, 1) if self.early[s] is None)

    def _play_decision(self, seat: int, kind: str) -> Decision:
        legal = self.playable(seat)
        key = (seat, kind, legal)
        decision = _DECISIONS.get(key)
        if decision is None:
            decision = _DECISIONS[key] = Decision(seat, kind, legal, _PROMPTS[kind])
        return decision

    def _first_revealer(self) -> int | None:
        for s in (0, 1):
            if self.reveal_first[s] and self.early[s] is None:
                return s
        return None

    def _character(self, seat: int) -> Character:
        char = self.chars[seat]
        assert char is not None, "no character chosen yet"
        return char

    def playable(self, seat: int) -> tuple[str, ...]:
        """Legal cards of ``seat`` this round (as ``play:<card>`` choices)."""
        return playable_choices(
            self._character(seat),
            self.hands[seat],
            self.lives[seat],
            self.round,
            self.catalog.rules,
            self.opts,
        )

    def _held(self, seat: int) -> list[Card]:
        return held(self._character(seat), self.hands[seat])

    def explain_illegal(self, seat: int, choice: str) -> str:
        try:
            typed = parse(choice)
        except ChoiceSyntaxError as exc:
            return exc.reason
        if self.phase == PLAY and isinstance(typed, Play):
            card = self.catalog.cards.get(typed.card)
            char = self.chars[seat]
            if card is None or char is None or card.character != char.id:
                return "no such card for your character"
            if not self.hands[seat][card.index]:
                return f"{card.name} is not in your hand"
            rules = self.catalog.rules
            if card.is_ultra and self.lives[seat] > rules.ultra_life_at_most:
                return (
                    f"an Ultra Combo can only be played when your life is "
                    f"{rules.ultra_life_at_most} or under (you have {self.lives[seat]})"
                )
            if card.is_super and self.round < rules.super_round_at_least:
                return (
                    f"a Super Combo can only be played from round "
                    f"{rules.super_round_at_least} (this is round {self.round})"
                )
        if self.phase != typed.verb:  # each phase is named after the verb of its choices
            return f"a {self.phase} decision is pending, not {typed.verb!r}"
        return "not among the legal choices"

    # -- transitions --------------------------------------------------------------------
    def _apply(self, choices: dict[int, str]) -> list[Event]:
        self._pending = None
        out: list[Event] = []
        if self.phase == CHARACTER:
            self._apply_characters(choices, out)
        elif self.phase == SETUP:
            self._apply_setup(choices, out)
        else:
            self._apply_play(choices, out)
        return out

    def _apply_characters(self, choices: dict[int, str], out: list[Event]) -> None:
        for s in sorted(choices):
            char = self.catalog.characters[PickCharacter.parse(choices[s]).character]
            self.chars[s] = char
            if not self.quiet:
                out.append(
                    ev.CharacterChosen(
                        rule="sfr.setup.choose-character", seat=s, character=char.name
                    )
                )
        self.phase = SETUP

    def _apply_setup(self, choices: dict[int, str], out: list[Event]) -> None:
        for s in (0, 1):
            char = self.chars[s]
            assert char is not None
            cover, shown = char.setups[choices[s]]
            hand = [c.copies for c in char.cards]
            hand[cover.index] -= 1
            hand[shown.index] -= 1
            self.hands[s] = tuple(hand)
            self.cover[s], self.shown[s] = cover, shown
            if not self.quiet:
                out.append(
                    ev.CardShown(
                        rule="sfr.setup.keep-eight", seat=s, card=shown.id, name=shown.name
                    )
                )
                out.append(
                    ev.CoverChosen(
                        rule="sfr.setup.keep-eight",
                        to=frozenset({s}),
                        seat=s,
                        card=cover.id,
                        name=cover.name,
                    )
                )
        self.phase = PLAY
        self.round = 1

    def _take(self, seat: int, choice: str) -> Card:
        card = self._character(seat).by_choice[choice]
        hand = list(self.hands[seat])
        hand[card.index] -= 1
        self.hands[seat] = tuple(hand)
        self.played[seat].append(card)
        return card

    def _apply_play(self, choices: dict[int, str], out: list[Event]) -> None:
        quiet = self.quiet
        first = self._first_revealer()
        if first is not None:
            card = self._take(first, choices[first])
            self.early[first] = card
            if not quiet:
                out.append(_revealed(first, card, early=True))
            return
        early = self.early
        a = early[0] or self._take(0, choices[0])
        b = early[1] or self._take(1, choices[1])
        if not quiet:
            for s, card in ((0, a), (1, b)):
                if early[s] is None:
                    out.append(_revealed(s, card))
        lives = self.lives
        start = len(out)
        result = resolve_round(
            (a, b),
            (self.carry[0], self.carry[1]),
            (lives[0], lives[1]),
            powerless=(
                self._powerless(0, a) if a.is_ultra else None,
                self._powerless(1, b) if b.is_ultra else None,
            ),
            swap_printed=self.opts.swap == "printed",
            events=None if quiet else out,
        )
        self.lives = list(result.lives)
        self.carry = list(result.carry)
        self.reveal_first = list(result.reveal_first)
        self.early = [None, None]
        self.round += 1
        self._check_end(out)
        if self.phase == OVER and not quiet:
            # no next round: its announcements ("+2 initiative next round") would be false
            out[start:] = [e for e in out[start:] if not isinstance(e, _LATER_ROUNDS)]

    def _powerless(self, seat: int, card: Card) -> tuple[str, str] | None:
        return powerless_reason(card, self.lives[seat], self.catalog.rules, self.opts)

    def _check_end(self, out: list[Event]) -> None:
        end = fight_end(
            self.lives,
            self.round,
            self.hand_size,
            lambda: self.opts.no_legal_card == "end-fight" and (self._stuck(0) or self._stuck(1)),
        )
        if end is not None:
            self._finish(end.winner, end.reason, end.rule, out)

    def _stuck(self, seat: int) -> bool:
        return is_stuck(
            self._character(seat),
            self.hands[seat],
            self.lives[seat],
            self.round,
            self.catalog.rules,
            self.opts,
        )

    def _finish(self, winner: int | None, reason: str, rule: str, out: list[Event]) -> None:
        self.phase = OVER
        self._pending = ()
        returns = (0.0, 0.0) if winner is None else ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
        self._outcome = Outcome(
            winners=() if winner is None else (winner,),
            draw=winner is None,
            returns=returns,
            reason=reason,
            rule=rule,
            detail={"lives": (self.lives[0], self.lives[1]), "rounds": self.round - 1},
        )
        if not self.quiet:
            out.append(
                ev.FightEnded(
                    rule=rule, winner=winner, reason=reason, lives=(self.lives[0], self.lives[1])
                )
            )

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """Resample what ``seat`` cannot see: which of the opponent's unseen cards is the
        cover on their life gauge (the rest is their hand)."""
        other = self.clone()
        opp = 1 - seat
        cover = self.cover[opp]
        if cover is None or self.chars[opp] is None:
            return other
        unseen = self.unseen(opp)
        new_cover = unseen[rng.randrange(len(unseen))]
        hand = list(self.hands[opp])
        hand[cover.index] += 1
        hand[new_cover.index] -= 1
        other.hands[opp] = tuple(hand)
        other.cover[opp] = new_cover
        other._pending = None
        return other

    # -- actions ------------------------------------------------------------------------

    def choice_to_action(self, seat: int, choice: str) -> int:
        try:
            typed = parse(choice)
            if isinstance(typed, PickCharacter):
                return A_CHARACTER + list(self.catalog.characters).index(typed.character)
            char = self.chars[seat]
            if char is None:
                raise KeyError(choice)
            if isinstance(typed, Play):
                return A_PLAY + char.card(typed.card).index
            assert isinstance(typed, SetUp)
            cover, shown = char.card(typed.cover), char.card(typed.shown)
            return A_SETUP + cover.index * CARD_SLOTS + shown.index
        except ChoiceSyntaxError as exc:
            raise MalformedChoiceError(seat, choice, exc.reason) from None
        except (KeyError, ValueError):
            raise MalformedChoiceError(seat, choice, "unknown choice") from None

    def action_to_choice(self, seat: int, action: int) -> str:
        if A_CHARACTER <= action < A_PLAY:
            return self.catalog.character_choices[action - A_CHARACTER]
        char = self.chars[seat]
        if char is None:
            raise KeyError(action)
        if A_PLAY <= action < A_SETUP:
            return char.cards[action - A_PLAY].choice
        if A_SETUP <= action < NUM_ACTIONS:
            cover, shown = divmod(action - A_SETUP, CARD_SLOTS)
            return SetUp(char.cards[cover].id, char.cards[shown].id).format()
        raise KeyError(action)

    # -- views --------------------------------------------------------------------------
    def unseen(self, seat: int) -> list[Card]:
        """``seat``'s cards its opponent has not seen: its hand and its cover, together."""
        if self.chars[seat] is None:
            return []
        held = self._held(seat)
        out = [c for c in held for _ in range(self.hands[seat][c.index])]
        cover = self.cover[seat]
        if cover is not None:
            out.append(cover)
        return sorted(out, key=lambda c: c.index)

    def view(self, seat: int | None) -> dict[str, Any]:
        players = []
        for s in (0, 1):
            char = self.chars[s]
            shown = self.shown[s]
            early = self.early[s]
            played = self.played[s][:-1] if early is not None else self.played[s]
            entry: dict[str, Any] = {
                "seat": s,
                "character": char.id if char else None,
                "character_name": char.name if char else None,
                "life": self.lives[s],
                "hand_size": sum(self.hands[s]),
                "shown": shown.id if shown else None,
                "played": [c.id for c in played],
                "revealed": early.id if early else None,
                "carry": {
                    "initiative_next_round": self.carry[s].bonus,
                    "lasting_initiative": self.carry[s].lasting_initiative,
                    "lasting_damage": self.carry[s].lasting_damage,
                },
                "must_reveal_first": self.reveal_first[s],
            }
            if seat == s and char is not None:
                held = self._held(s)
                entry["hand"] = [c.id for c in held for _ in range(self.hands[s][c.index])]
                cover = self.cover[s]
                entry["cover"] = cover.id if cover is not None else None
            players.append(entry)
        return {
            "game": "sfrivals",
            "seat": seat,
            "phase": self.phase,
            "round": self.round,
            "rounds": self.hand_size,
            "life_max": self.life_max,
            "players": players,
            "pending": pending_view(self.pending(), seat),
            "outcome": None if self._outcome is None else self._outcome.to_json(),
        }


def _revealed(seat: int, card: Card, *, early: bool = False) -> ev.CardRevealed:
    """``seat`` reveals ``card`` (``early``: first, before the opponent chooses)."""
    return ev.CardRevealed(
        rule="sfr.round.reveal",
        seat=seat,
        card=card.id,
        name=card.name,
        initiative=card.initiative,
        damage=card.damage,
        damage_mark=card.damage_mark,
        early=early,
    )
