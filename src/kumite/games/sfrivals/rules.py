"""Rule index: every reference an SF Rivals event can carry, with the clause it applies.

``sfr.*`` references quote the rulebook (``../shared/rulebooks/street-fighter-rivals.txt``);
``sfr.ruling.*`` references are kumite's readings of unclear clauses (``docs/rulings.md``);
``sfr.card.<id>`` references are a card's own power text.
"""

from __future__ import annotations

RULES: dict[str, str] = {
    "sfr.setup.choose-character": (
        "Choose 1 character that you will use for the fight from among the 8 characters."
    ),
    "sfr.setup.keep-eight": (
        "From among the 10 technique cards of your character, choose 8 which you will use in "
        "the fight. From the 2 remaining cards, choose one card and put it facedown on top of "
        "your life-gauge card. Reveal the other unused card to your opponent."
    ),
    "sfr.round.play": "From the 8 technique cards in hand, each player plays one face down.",
    "sfr.round.reveal": (
        "Reveal your cards at the same time. Check the initiative and any special powers on "
        "the cards."
    ),
    "sfr.round.higher-initiative": (
        "The card with the higher initiative number will 'win' and take effect. The damage "
        "value written on that card is subtracted from the opponent's life-gauge."
    ),
    "sfr.round.equal-initiative": (
        "When the initiative of the cards is the same, the player's techniques result in a "
        "draw and both players take damage (as indicated by the cards)."
    ),
    "sfr.round.cards-used": (
        "The technique cards used in that round of combat can't be used anymore in the fight."
    ),
    "sfr.life.gauge": "Each time you receive damage move the face down card down.",
    "sfr.end.ko": (
        "The first player whose life-gauge becomes 0 is knocked out and the other player is "
        "the winner."
    ),
    "sfr.end.double-ko": "If both players get KOed at the same time, then it is a draw.",
    "sfr.end.out-of-cards": (
        "If both players have some life-gauge remaining but their technique cards have all "
        "been used, then the player with the highest life-gauge is the winner. If the health "
        "is the same, then it is a draw."
    ),
    "sfr.powers.check-printed-initiative": (
        "When a special power is triggered by the opponent's initiative level, consult the "
        "value written on your opponent's card (not what the effective initiative may have "
        "become through some effect of special powers)."
    ),
    "sfr.layout.ultra-combo": (
        "For an Ultra Combo, when your own life-gauge is 5 or under, you can use it."
    ),
    "sfr.layout.super-combo": "For a Super Combo, it can only be used in the 5th round or later.",
    "sfr.layout.damage": (
        "Damage: when this card 'wins' initiative/takes effect, this amount of damage is dealt "
        "to your opponent."
    ),
    "sfr.match.points": (
        "Please feel free to try and devise and play team matches or tournaments etc., with "
        "every one fight earning 1 or 2 points."
    ),
    # kumite's rulings (docs/rulings.md)
    "sfr.ruling.power-order": (
        "Powers resolve in a fixed order: self-cancellation, cancellation (simultaneous), "
        "carried initiative bonuses, swaps, forced draw, comparison, damage, next-round effects."
    ),
    "sfr.ruling.mutual-cancel": (
        "Cancellations are simultaneous: two cards that cancel each other's power both lose it."
    ),
    "sfr.ruling.powers-regardless-of-winner": (
        "A card's power takes effect whether or not the card wins the round."
    ),
    "sfr.ruling.carried-bonus": (
        "Initiative bonuses carried from an earlier round are not the current card's power; "
        "cancelling that card's power does not remove them."
    ),
    "sfr.ruling.swap": "A swap exchanges the cards' current initiative values.",
    "sfr.ruling.technique-cancel": (
        "A cancelled technique has no initiative, damage or power this round; the Ultra's "
        "10 damage is all the damage dealt."
    ),
    "sfr.ruling.reduction": (
        "Damage reduction applies to all damage a player receives in the round, down to 0."
    ),
    "sfr.ruling.reveal-first-both": (
        "If each player must reveal first, neither does: the round is played simultaneously."
    ),
    "sfr.ruling.ultra-play": (
        "An Ultra Combo card may only be played while its owner's life is 5 or under."
    ),
    "sfr.ruling.no-legal-card": (
        "A player whose only cards left cannot be played has no technique left to use: the "
        "fight ends as when the cards run out."
    ),
    "sfr.ruling.life-floor": "A life gauge does not go below 0.",
}


def card_rule(card_id: str) -> str:
    """The reference of a card's own power text."""
    return f"sfr.card.{card_id}"
