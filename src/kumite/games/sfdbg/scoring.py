"""End-of-game scoring: VP of a deck, variable-VP cards, tie-breaks (pure functions)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from kumite.games.sfdbg.cards import Card, Catalog


def card_vp(card: Card, deck: Counter[int], cards: Sequence[Card]) -> int:
    """The VP one copy of ``card`` is worth in ``deck`` (counts per card index)."""
    rule = card.vp_rule
    if rule is None:
        return card.vp
    if rule.kind == "squared":
        # "each worth VP equal to the number you own": n copies make n * n.
        return deck[card.index]
    if rule.kind == "per_different_attack":
        return sum(1 for c in deck if cards[c].has_attack)
    if rule.kind == "per_different_defense":
        return sum(1 for c in deck if cards[c].has_defense)
    if rule.kind == "different_at_least":
        different = sum(1 for c in deck if cards[c].type in rule.types)
        return rule.amount if different >= rule.count else 0
    raise ValueError(f"unknown VP rule {rule.kind!r}")  # pragma: no cover - schema forbids it


def deck_vp(catalog: Catalog, deck: Iterable[int]) -> int:
    """``sfdbg.end.score``: total VP of the cards in a deck (Weaknesses count -1 each)."""
    counts = Counter(deck)
    cards = catalog.cards
    return sum(card_vp(cards[c], counts, cards) * n for c, n in counts.items())


def stage_count(catalog: Catalog, deck: Iterable[int]) -> int:
    cards = catalog.cards
    return sum(1 for c in deck if cards[c].pile == "stage")


def ranking_key(vp: int, stages: int, cards: int) -> tuple[int, int, int]:
    """``sfdbg.end.tie``: highest VP, then more Stages, then more cards."""
    return (vp, stages, cards)


def winners(keys: Sequence[tuple[int, int, int]]) -> tuple[int, ...]:
    """Seats with the best key (several if still tied: ``sfdbg.ruling.tie``)."""
    best = max(keys)
    return tuple(s for s, k in enumerate(keys) if k == best)


def decided_by(keys: Sequence[tuple[int, int, int]]) -> str:
    """Which rule decided the winner: ``vp``, ``stages``, ``cards`` or ``tie``."""
    best = max(keys)
    tied = [k for k in keys if k[0] == best[0]]
    if len(tied) == 1:
        return "vp"
    tied_stages = [k for k in tied if k[1] == best[1]]
    if len(tied_stages) == 1:
        return "stages"
    return "cards" if sum(1 for k in tied_stages if k == best) == 1 else "tie"
