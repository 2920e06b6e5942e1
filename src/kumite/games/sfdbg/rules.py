"""Rule index: every reference an SF DBG event can carry, with the clause it applies.

``sfdbg.*`` references quote the rulebook
(``../shared/rulebooks/street-fighter-deck-building-game.txt``); ``sfdbg.ruling.*`` are
kumite's readings where it is silent or unclear (``docs/rulings.md``); ``sfdbg.card.<id>``
and ``sfdbg.hero.<id>`` are a card's or a Super Hero's own text.
"""

from __future__ import annotations

RULES: dict[str, str] = {
    # -- setup
    "sfdbg.setup.heroes": (
        "Shuffle the 14 Super Heroes and deal one to each player or choose your favorite "
        "character. Place the remaining Super Heroes face down in the middle of the table in "
        "a single stack."
    ),
    "sfdbg.setup.starting-deck": (
        "Each player begins with a starting deck of seven Punch cards and three Vulnerability "
        "cards."
    ),
    "sfdbg.setup.main-deck": (
        "Shuffle the main deck and place it in the middle of the table. None of the following "
        "cards should ever be placed into the main deck: Stage, Punch, Vulnerability, Kick, "
        "Ultra, Weakness, or the oversized Super Heroes. (111 cards total)"
    ),
    "sfdbg.setup.ultras": (
        "Find your Super Hero's Ultra move card and place it face up underneath your oversized "
        "Super Hero."
    ),
    "sfdbg.setup.stages": (
        "Place them face down and in order with Stage 8 on the bottom and Stage 1 on the top. "
        "Then flip the top card face up so America can be seen."
    ),
    "sfdbg.setup.stacks": (
        "You will always use all 16 Kicks and all 20 Weaknesses each game. Kicks and Stages are "
        "always available to be bought or defeated during your turn (while cards remain in "
        "their stacks). Weaknesses are never bought, gained only through unfriendly card effects."
    ),
    "sfdbg.setup.line-up": (
        "After shuffling the main deck, place the top five cards from the main deck into the "
        "Line-Up."
    ),
    "sfdbg.setup.first-player": (
        "Randomly determine a player to go first. Players take turns in clockwise order."
    ),
    "sfdbg.setup.hand": "Draw a new hand of five cards.",
    # -- the turn
    "sfdbg.turn.buy": (
        "Each turn, you may buy cards from the Line-Up, Kick cards, and/or the top card of the "
        "Stage stack to improve your deck."
    ),
    "sfdbg.turn.to-discard": (
        "Cards you buy or gain are always immediately placed into your discard pile unless you "
        "are instructed otherwise. Discard piles are always face up."
    ),
    "sfdbg.turn.buy-any-number": (
        "You can buy any number of available cards with cost less than or equal to the amount "
        "of Power you have for the turn."
    ),
    "sfdbg.turn.pass": ("You may pass if you cannot buy or do not wish to buy any cards."),
    "sfdbg.turn.vulnerability": (
        "You may play them if you wish, but they have no effect when played. They are not "
        "discarded until the end of your turn."
    ),
    "sfdbg.turn.play-order": (
        "On your turn, you get to play the cards in your hand in the order of your choosing. "
        "When you play a card, its game text resolves immediately."
    ),
    "sfdbg.turn.play-after-buy": (
        "You do not have to play all of the cards in your hand before you start making "
        "purchases if you don't want to. You may play additional cards even after making "
        "purchases."
    ),
    "sfdbg.end-turn.effects": '1. Resolve any "at the end of your turn" effects.',
    "sfdbg.end-turn.discard-draw": (
        "2. Place all the cards you played and any cards remaining in your hand into your "
        "discard pile. Any unspent Power from cards played during the turn is lost. Draw a new "
        "hand of five cards and pass the turn to the player on your left."
    ),
    "sfdbg.end-turn.refill": (
        "3. If any of the slots in the Line-Up are empty, draw cards off the main deck and add "
        "them to the Line-Up. Do not replace empty slots as soon as you buy or gain a card from "
        "the Line-Up."
    ),
    "sfdbg.end-turn.flip": "4. If the top card of the Stage stack is face down, flip it face up.",
    # -- end of game
    "sfdbg.end.no-stage": "The game ends immediately when you are unable to flip up a new Stage.",
    "sfdbg.end.line-up": (
        "The game ends immediately when you are unable to refill all five slots of the Line-Up."
    ),
    "sfdbg.end.score": (
        "Return all Locations you have in play, all cards in your hand, and all cards in your "
        "discard pile to your deck. Then, players total up the Victory Points on cards in their "
        "deck. The player with the highest VP total is crowned the winner!"
    ),
    "sfdbg.end.weakness": (
        "Weakness cards in your deck at the end of the game will subtract Victory Points (VP) "
        "from your total."
    ),
    "sfdbg.end.tie": (
        "In case of a tie, the player with more Stage cards wins. If there is still a tie, the "
        "tied player with the most cards in his deck is the winner."
    ),
    # -- attacks and defenses
    "sfdbg.attack.defense": (
        "When you play a card with an Attack ability, each player affected by the Attack has an "
        "opportunity to avoid it with a card that has a Defense ability. A player using a "
        "Defense card's ability avoids the Attack only for that defending player. Any players "
        "who don't avoid the Attack are then affected by the Attack card's ability."
    ),
    "sfdbg.attack.other-abilities": (
        "Avoiding an Attack does not negate any other abilities (like +1 Power) of a card, "
        "unless an ability specifically counts the players successfully hit by the Attack."
    ),
    "sfdbg.attack.one-defense": "A player may only play one Defense card per Attack.",
    # -- stage bosses
    "sfdbg.boss.challenge": (
        "If you choose to challenge the Boss and can meet or exceed its cost, remove the top "
        "card of the oversized Super Hero stack. Then flip it face up. That character is the "
        "Boss/Super-Villain of the current Stage."
    ),
    "sfdbg.boss.counter-attack": (
        "On that character is a Counter-Attack that you (and only you) must deal with "
        "immediately. You have not yet acquired the Stage card during this challenge, so it "
        "cannot be affected by the Counter-Attack. You can simply allow the Counter-Attack to "
        "hit you, or you may play a Defense card from your hand to avoid it. You cannot defend "
        "yourself with a Defense card that you have already played this turn."
    ),
    "sfdbg.boss.defeated": (
        "Remove the Stage you defeated from its stack and place it into your discard pile. The "
        "next card in the Stage stack remains face down until your turn is over. Remove the "
        "defeated Boss card from play and leave the next one face down."
    ),
    "sfdbg.boss.one-per-turn": "A player may only defeat one Stage per turn.",
    "sfdbg.location.in-play": (
        "When you play a Location from your hand, it will remain in play for the rest of the "
        "game (unless a card says otherwise). The word Ongoing is a reminder that this card "
        "keeps working for you turn after turn."
    ),
    # -- counter-attacks and Ultras
    "sfdbg.counter.ultra": (
        "Your own Super Hero's Counter-Attack can be activated by playing your Ultra card as a "
        "Defense when you are Attacked by another player. It will be the attacker who suffers "
        "the effects of your Super Hero's game text, not you."
    ),
    "sfdbg.counter.in-play-or-discard": (
        'Several Counter-Attacks affect cards "in play" or in a discard pile. The affected '
        'player does not choose either "in play" or "discard pile." They must look in both '
        "areas and then choose card(s) to be affected. The cards an attacker has played during "
        "his turn are in play."
    ),
    "sfdbg.counter.is-attack": (
        "Counter-Attacks are Attacks. A Counter-Attack from a Boss or another player may be "
        "avoided by utilizing a Defense card. A player may not use a Defense they have already "
        "played to avoid a Counter-Attack."
    ),
    "sfdbg.counter.ultra-vs-counter": (
        "You may use your Ultra Defense to avoid a Counter-Attack, in which case you will be the "
        "one Counter-Attacking your foe instead!"
    ),
    "sfdbg.counter.once-per-turn": "Your Counter-Attack may only trigger once per turn.",
    # -- weakness, shuffling, destroying, gaining, under the Super Hero, order
    "sfdbg.weakness.from-stack": (
        "These cards come from the Weakness stack, not from the hand or discard pile of the "
        "person playing the Attack card."
    ),
    "sfdbg.weakness.runs-out": (
        "If the Weakness deck runs out, effects that would cause a player to gain a Weakness do "
        "not do so, but any other effects those cards have still resolve as usual. A player may "
        "still play a Defense to avoid an Attack, even when there are no Weaknesses available "
        "to be gained."
    ),
    "sfdbg.weakness.returned": (
        "A Weakness card is returned to the Weakness stack when played, which immediately "
        "removes it from your deck."
    ),
    "sfdbg.shuffle.when-needed": (
        "You don't reshuffle your discard pile into your deck as soon as you run out of cards. "
        "However, if at any point during the game if no cards are in your deck and you need to "
        "draw, discard, or reveal a card from your deck, immediately reshuffle your discard "
        "pile, and it becomes your new deck."
    ),
    "sfdbg.destroy": (
        "When playing a card with a destroy ability, you may choose a card and place it into a "
        "face-up pile of destroyed cards anywhere away from the play area, removing it from "
        "your deck and the game. When Weaknesses and Kicks are destroyed, they do not go back "
        "to their respective stacks."
    ),
    "sfdbg.gain": (
        "A card may tell a player to gain a particular card or a card of your choice. That card "
        "is taken and immediately placed in that player's discard pile, at no additional cost, "
        "unless otherwise directed by the card."
    ),
    "sfdbg.gain.unavailable": (
        "If a card tells you to gain a card with a specific name, card type, or cost and none "
        "are available, you simply don't gain the card."
    ),
    "sfdbg.gain.main-top-stays": (
        "If you reveal the top card of the main deck and it is not the appropriate card type or "
        "cost for you to gain, leave it on top of the main deck."
    ),
    "sfdbg.under.buy": (
        "You may buy or gain any cards that are underneath your Super Hero as if they were in "
        "the Line-Up. They do not count as Line-Up cards for purposes other than your ability "
        "to buy or gain them. When you buy or gain a card from underneath your Super Hero, it "
        "goes into your discard pile as usual."
    ),
    "sfdbg.under.others": (
        "Other players may inspect these cards. However, they may not buy or gain the cards "
        "underneath your Super Hero or affect them in any manner (unless a card says otherwise)."
    ),
    "sfdbg.under.not-counted": (
        "At the end of the game, any cards remaining underneath your Super Hero are not part of "
        "your deck and you do not count their Victory Points."
    ),
    "sfdbg.resolve.clockwise": (
        "If a card's ability affects multiple players, and the order matters, resolve that "
        "ability for each affected player in clockwise order, starting from the player who "
        "played the ability."
    ),
    # -- variants
    "sfdbg.variant.high-powered": (
        "High-Powered Heroes: When you play your Super Hero's Ultra card (for +Power and the "
        "Attack), you may shuffle it into your deck at end of turn instead of discarding it."
    ),
    "sfdbg.variant.secret-heroes.setup": (
        "Secret Heroes: Shuffle the Super Heroes and deal one face down to each player. Shuffle "
        "the Ultra cards and deal three face down to each player. Place these Ultras under your "
        "face-down Super Hero. Place the remaining oversized Super Heroes face down in their "
        "normal spot in the stacks."
    ),
    "sfdbg.variant.secret-heroes.buy": (
        "When a player wishes to buy an Ultra, he buys the top card of his Ultra stack. A "
        "player may buy all three of his Ultra cards."
    ),
    "sfdbg.variant.secret-heroes.defense": (
        "When a player uses his Ultra Defense to avoid an Attack under this variant, discard it "
        "instead of shuffling it into your deck. Then flip your Super Hero face up to reveal "
        "your Counter-Attack. Then that player receives a new face down Super Hero. Discard the "
        "old one. When the Super Hero stack runs out, shuffle the Super Hero discard pile and "
        "create a new face-down Super Hero stack."
    ),
    # -- specific card clarifications and FAQ
    "sfdbg.clarify.attack-defense-cards": (
        "Akuma's Gi, Rolento's Baton: A Defense card is a card with the bolded word "
        '"Defense:" on it. An Attack card is a card with the bolded word "Attack:" on it. '
        "An Ultra card is worth 1 VP to both of these cards."
    ),
    "sfdbg.clarify.locations-same-turn": (
        "Brazil and other Locations: You may use a Location ability in the same turn in which "
        "you play it."
    ),
    "sfdbg.clarify.soldier-of-justice": (
        "Soldier of Justice: Each card may have a cost of 7 or less, not 7 or less combined."
    ),
    "sfdbg.clarify.cammy-delta-red": (
        "Cammy, Delta Red: Defeating a Stage/Super-Villain will trigger her ability. The "
        "Location does not need to be in your discard pile at the time you play her to get the "
        "effect. You may place a Location into your hand at any time during your turn."
    ),
    "sfdbg.clarify.under-same-turn": (
        "Electric Thunder, Sodom, Red Cyclone: You may buy the card you place under your Super "
        "Hero in the same turn in which you place it there."
    ),
    "sfdbg.clarify.attacker-cannot-avoid": (
        "Galactic Tornado, Electric Thunder, Shinku Hadoken: An attacker cannot avoid the "
        "detrimental effects of these cards."
    ),
    "sfdbg.clarify.mystic-yogi": (
        "Mystic Yogi: Effects and Power generated the first time you play it remain."
    ),
    "sfdbg.clarify.hugo": (
        'Hugo: "Cannot avoid" means that foe may not play a Defense card at all against the '
        "next attack that occurs during that turn."
    ),
    "sfdbg.clarify.naming": (
        "Psycho Punisher, Rekkashingeki: Foes must choose whether or not to play a Defense card "
        "before you have to name a type or cost."
    ),
    "sfdbg.clarify.rose": (
        "Rose: If you buy multiple cards from underneath your Super Hero, each of them costs 1 "
        "less to buy."
    ),
    "sfdbg.clarify.ryus-headband": (
        "Ryu's Headband: If you have already played other cards and choose to play this, you "
        "must place your deck into your discard pile. If you don't wish to play it, simply leave "
        "it in your hand and discard it at the end of your turn."
    ),
    "sfdbg.clarify.agents-of-shadaloo": (
        "Agents of Shadaloo: If you play two copies of this card during your turn, the second "
        "one played will grant you +2 Power and a card draw. At the end of the game, you "
        "effectively gain VPs equal to the number of Shadaloo cards in your deck squared."
    ),
    "sfdbg.clarify.reveal-before-defense": (
        "Shinku Hadoken, Galactic Tornado: These cards may be revealed prior to playing a "
        "Defense card, as they are not Defenses."
    ),
    "sfdbg.clarify.ultimate-atomic-buster": (
        "Ultimate Atomic Buster: Any foe you don't wish to give a card to cannot play a Defense "
        "card against this. If a foe avoids the Attack, put the given card back where it "
        "started. Name each foe and choose each card to give first. Resolve the effects in "
        "clockwise order."
    ),
    "sfdbg.clarify.yoga-catastrophe": (
        "Yoga Catastrophe: The Weakness given to a foe in the first sentence cannot be avoided."
    ),
    "sfdbg.faq.defeat": (
        'That term is only used referring to Bosses/Super Villains/Stages. You "defeat" a '
        "Boss/Super Villain/Stage when you buy or gain one."
    ),
    # -- kumite's rulings (docs/rulings.md)
    "sfdbg.ruling.round-limit": (
        "The game also ends after a fixed number of full rounds (option round_limit, default "
        "60), scored as usual: the rulebook has no limit, and players who stop buying could "
        "play forever."
    ),
    "sfdbg.ruling.location-trigger": (
        'A Location\'s "the first time you play ... during each of your turns" triggers on the '
        "first matching card played while the Location is in play, once per turn; a Location "
        "does not trigger on its own play."
    ),
    "sfdbg.ruling.defense-asked": (
        "Every player affected by an Attack is asked whether to avoid it, even one who holds no "
        "Defense, so that being asked reveals nothing about a hand."
    ),
    "sfdbg.ruling.defense-from-hand": (
        "A Defense is played from your hand; cards in play have already been played and cannot "
        "be used to defend."
    ),
    "sfdbg.ruling.ultra-after-counter": (
        "An Ultra used as a Defense after your Counter-Attack has triggered this turn still "
        "avoids the Attack, without a second Counter-Attack."
    ),
    "sfdbg.ruling.counter-vs-boss": (
        "Using your Ultra to avoid a Stage Boss's Counter-Attack avoids it; the Boss has no "
        "cards, so your Counter-Attack has nothing to affect and does not use up your once per "
        "turn."
    ),
    "sfdbg.ruling.hugo-next-attack": (
        'Hugo\'s "cannot avoid" applies to the next Attack anyone makes that turn, a '
        "Counter-Attack included, and is used up by it even when it does not affect that foe."
    ),
    "sfdbg.ruling.cannot-buy-stage": (
        "A player who can't buy any more cards this turn (Vega's Counter-Attack) can't challenge "
        "a Stage Boss either: defeating a Stage counts as buying it (FAQ)."
    ),
    "sfdbg.ruling.stage-by-any-route": (
        "A Stage bought or gained by any route (from under a Super Hero, given by Ultimate "
        "Atomic Buster) is a Stage defeated (FAQ): Cammy, Delta Red counts it, and it is that "
        "player's one Stage of the turn; after it he may neither challenge the Stage Boss nor "
        "buy or gain another Stage that turn, nor be given one."
    ),
    "sfdbg.ruling.reactions": (
        "Shinku Hadoken and Galactic Tornado are revealed from the hand (they stay there) when a "
        "player's Attack affects you, each at most once per Attack, before you choose a "
        "Defense; a foe who cannot avoid the Attack may still reveal them. A Stage Boss is not a "
        "foe: they cannot be revealed against its Counter-Attack."
    ),
    "sfdbg.ruling.in-play": (
        'Cards "in play" are the cards a player has played this turn and his Locations.'
    ),
    "sfdbg.ruling.power-floor": "Power lost cannot take a player's Power below 0.",
    "sfdbg.ruling.destroy-played": (
        "Destroying a card you have played does not undo the Power or effects it gave."
    ),
    "sfdbg.ruling.main-top-known": (
        "A card revealed on top of the main deck and left there stays known to everyone until it "
        "leaves the main deck."
    ),
    "sfdbg.ruling.known-in-hand": (
        "A card revealed from a hand, returned to it in sight, or put on top of a deck and "
        "drawn at the end of the turn is known to be in that hand until it leaves it."
    ),
    "sfdbg.ruling.tie": ("Players still tied after both tie-breaks share the win."),
    "sfdbg.ruling.secret-five-players": (
        "Secret Heroes with five players: the 14 Ultras are dealt one at a time in clockwise "
        "order from the first player, so the last player gets two."
    ),
    "sfdbg.ruling.secret-unknown": (
        "Secret Heroes: a face-down Super Hero and the Ultras under it are unknown to everyone, "
        "their owner included, until they are flipped or bought."
    ),
    "sfdbg.ruling.secret-defeated-boss": (
        "Secret Heroes: a defeated Boss is removed from play; only replaced Super Heroes go to "
        "the Super Hero discard pile."
    ),
    "sfdbg.ruling.end-of-turn-order": (
        '"At the end of your turn" effects resolve in step 1, before played cards are '
        "discarded: Tireless Warrior goes on top of your deck and is drawn in your new hand."
    ),
    "sfdbg.ruling.never-into-main-deck": (
        "Only cards that started in the main deck can be put into it: an effect that puts a "
        "card on the bottom of the main deck (Dhalsim's Counter-Attack, or any pack's) cannot "
        "choose a Stage, Punch, Vulnerability, Kick, Ultra or Weakness."
    ),
    "sfdbg.ruling.returns": (
        "Game result for analysis: each winner scores +1, every other player -1."
    ),
}


def card_rule(card_id: str) -> str:
    """The reference of a card's own text."""
    return f"sfdbg.card.{card_id}"


def hero_rule(hero_id: str) -> str:
    """The reference of a Super Hero's Counter-Attack."""
    return f"sfdbg.hero.{hero_id}"
