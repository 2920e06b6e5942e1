"""Rule index: every reference a Rivales event can carry, with the clause it applies.

``rv.*`` references quote the rulebook (``../shared/rulebooks/rivales-capitulo-1-justicia.txt``),
``rv.2v2.*`` its official 2vs2 companion, ``rv.ruling.*`` kumite's readings of unclear clauses
(``docs/rulings.md``), ``rv.card.<id>`` a card's text and ``rv.fighter.<id>`` a fighter's
passive ability.
"""

from __future__ import annotations

RULES: dict[str, str] = {
    # -------------------------------------------------------------------- components
    "rv.components.deck": (
        "Each fighter has a deck of 11 cards: 1 fighter card (life bar, victory symbol, special "
        "ability and maximum combo with its bonuses) and 10 movement cards: x4 basic (the same "
        "for all fighters), x5 unique, x1 ultra (which starts on the table face up)."
    ),
    # ------------------------------------------------------------------------- setup
    "rv.setup.fighter": (
        "Selects a fighter, takes their deck and places the character card on their side of the "
        "table, with the victory symbol in grey face up."
    ),
    "rv.setup.ultra-aside": (
        "Separates the fighter's ultra (pink hexagon) card and places it face up. It can only be "
        "picked up when the ultra icon is uncovered on the life bar."
    ),
    "rv.setup.deck": "Shuffles the remaining 9 cards and forms their deck, left face down.",
    "rv.setup.life-marker": (
        "Draws 5 cards from the deck and chooses one of them to use as a life marker (heart), "
        "which is placed fully covering the life bar."
    ),
    "rv.setup.hand": "The 4 remaining cards are their starting hand.",
    # ---------------------------------------------------------------------- the game
    "rv.play.goal": (
        "The goal is to win the fight by defeating the rival in 2 out of 3 rounds. Each round "
        "lasts a maximum of 7 clashes, and may end earlier if a K.O. occurs."
    ),
    "rv.clash.play": (
        "Each clash begins with both players simultaneously playing 1 card from their hand, "
        "face down, adjacent to their last played card and facing each other."
    ),
    "rv.clash.reveal": (
        "Players decide whether or not to boost speed / damage, both cards are revealed at the "
        "same time and the immediate effects (stopwatch/lightning icon) are resolved."
    ),
    "rv.clash.immediate-order": (
        "If both have immediate effects, they are resolved respecting the priority order by "
        "type: ultra, then basic, then unique. If they are of the same type, whoever has more "
        "Speed resolves first."
    ),
    "rv.clash.requirement": (
        "Some effects have a requirement (text in red) that must be met in order to execute them."
    ),
    "rv.speed.value": (
        "Speed is calculated by adding the base value (printed on the card) + bonuses (from "
        "effects or combo)."
    ),
    "rv.speed.tie-type": (
        "In case of a tie, the priority order by type is applied: ultra, then basic, then unique."
    ),
    "rv.speed.exchange": (
        "If both values are equal there is an exchange: both fighters flip their active card, "
        "each receives 1 Damage ignoring guard, and the clash is over."
    ),
    "rv.speed.attacker": (
        "Whoever has the higher Speed is the attacker, and their rival is the defender."
    ),
    "rv.attack.damage": (
        "The attacker's Damage equals its base value (printed on the card) + bonuses (from "
        "effects or combos)."
    ),
    "rv.defense.guard": (
        "If the defender's card has Guard points, they are subtracted from the attacker's "
        "Damage: if the result is 1 or more, Damage is dealt."
    ),
    "rv.defense.no-damage": (
        "If no Damage is dealt the clash ends immediately, leaving both cards face up."
    ),
    "rv.damage.flip": (
        "If the defender receives 1 or more points of Damage, they must flip their card, "
        "cancelling its effect."
    ),
    "rv.damage.life-marker": (
        "They must also move their life marker to the right as many spaces as Damage received."
    ),
    "rv.end.ko": (
        "If a fighter uncovers K.O. with their life marker, they lose immediately, ending the "
        "round."
    ),
    "rv.end.next-clash": (
        "If nobody is K.O. and 7 clashes have not been played, a new one begins, each player "
        "drawing 1 card from their deck as long as it is not exhausted, or otherwise playing "
        "with what is left in hand."
    ),
    "rv.end.ultra": (
        "If during the clash the ultra icon (pink hexagon) was uncovered on their life bar, they "
        "will also take their ultra card."
    ),
    "rv.end.seventh-clash": (
        "At the end of the seventh clash the round ends, and whoever has more life wins."
    ),
    "rv.end.round-tie": "In case of a tie the round is considered won by both fighters.",
    "rv.end.match": "The game ends when a player wins 2 out of 3 rounds.",
    "rv.end.final-round": (
        "If after 3 rounds there is a tie, a final round is played and the first to cause 1 or "
        "more Damage is the winner."
    ),
    # ------------------------------------------------------------------------ energy
    "rv.energy.flipped": (
        "Each flipped card is 1 energy, which can be used to boost Speed / Damage / Guard."
    ),
    "rv.energy.boost": (
        "Before revealing the played card, if someone has energy they may decide to use it to "
        "boost that card. For each energy used, they must move one of their flipped cards down. "
        "They cannot reuse it unless some effect indicates so. x1 energy = +1 Damage; x2 "
        "energies = +1 Speed; x3 energies = +1 Speed and +1 Damage. The energies do not need to "
        "be adjacent."
    ),
    "rv.energy.boost-order": (
        "If both players have energy available, whoever has won a clash most recently decides "
        "whether to boost Speed / Damage or to pass. Then their rival does the same and the "
        "cards are revealed."
    ),
    "rv.energy.guard": (
        "Only the defender: during the defense, the defender can increase their Guard by as "
        "many points as they wish to exhaust as energy."
    ),
    # ------------------------------------------------------------------------ combos
    "rv.combo.link": (
        "Cards with links (chain link icon) are considered in combo if at least 2 of them are "
        "face up and adjacent. When the cards in a clash enter a combo, the bonus described on "
        "the fighter card is obtained."
    ),
    "rv.combo.chained": (
        "Some fighters can chain more than one link. When the cards in the clash enter a combo "
        "forming 2 or more links, the player adds the bonuses described on the fighter card."
    ),
    "rv.combo.maximum": (
        "When a player executes their maximum combo (indicated on their fighter card), the last "
        "card of that combo is moved face down, cutting it and indicating that the next card "
        "will start a new combo."
    ),
    "rv.dodge": (
        "A dodge ('esquiva') leaves a card face up in play; its effect is respected by playing "
        "the face-up card first in the next clash (2vs2 companion, Preparation)."
    ),
    # -------------------------------------------------------------------------- 2vs2
    "rv.2v2.objective": (
        "Win the fight by defeating the rival team in 2 out of 3 rounds. Each round lasts a "
        "maximum of 7 clashes."
    ),
    "rv.2v2.team-ko": (
        "If at the end of a clash one of the teams has a K.O., it loses the round. If both have "
        "a K.O., the team whose surviving fighter has more life wins. If the tie persists, both "
        "teams win the round."
    ),
    "rv.2v2.teams": "2 teams of 2 fighters are formed. Each team sits on one side of the table.",
    "rv.2v2.different-fighters": ("The players of each team must each select a different fighter."),
    "rv.2v2.setup": "The initial setup of each fighter is the same as in 1vs1 mode.",
    "rv.2v2.zones": (
        "The play area is divided into Zone 1 and Zone 2. At the start of each clash the team "
        "members must agree on which zone each will play in, since only one may play per zone."
    ),
    "rv.2v2.communication": (
        "Limited communication between players of the same team: communication may be private "
        "(whispering, signs, etc.) but without using a cell phone or getting up from the table "
        "to discuss matters of the rival team. They may discuss game strategies about the "
        "information visible on the table or possible actions the rival team might perform. "
        "Cards of the other team may not be counted or enumerated. Cards in hand may not be "
        "shown or named between players of the same team."
    ),
    "rv.2v2.zone-choice": (
        "Lastly, and in private, they must choose which zone each will play in during the "
        "active clash, bearing in mind that both cannot go to the same zone."
    ),
    "rv.2v2.preparation": (
        "All players place a card from their hand face down in the selected zone. If a dodge "
        "('esquiva') was left face up in play in the previous clash, its effect is respected by "
        "playing the face-up card first in the corresponding zone."
    ),
    "rv.2v2.boosting": (
        "Players may use the energy cards of both fighters on their team to boost Speed / "
        "Damage / Guard, but only those corresponding to the zone where the clash is being "
        "played. Each zone is resolved separately and in the order the players decide; both "
        "zones must be resolved before moving to the next phase."
    ),
    "rv.2v2.resolution": (
        "All effects are resolved only in the zone where the fighter is (cards in the other "
        "zone are not taken into account). Players decide whether to resolve both zones at the "
        "same time or one zone at a time. This phase follows the rules of the vs game with the "
        "adjustments listed for some effects."
    ),
    "rv.2v2.combined-combos": (
        "Combo chains are shared: while links are being formed, the active fighter benefits "
        "from the combo bonuses. Only the combo chain belonging to the fighter who starts the "
        "combo is taken into account; both teammates may receive its bonuses and reach its "
        "maximum combo, cutting it."
    ),
    "rv.2v2.end-of-clash": (
        "Effects that trigger in this phase are resolved. Everyone draws a card from their deck "
        "and a new clash begins."
    ),
    "rv.2v2.adjust.zorro": (
        "Zorro — Passive: refers to all exhausted cards, counting their own and those of their "
        "partner. La Marca: counts face-down cards of their own and their partner's. Latigazo: "
        "refers to the card in the previous clash, regardless of whose card it is. Presión: may "
        "flip a card of their own or of their partner. Amague: may only be exchanged with their "
        "own blue cards."
    ),
    "rv.2v2.adjust.curie": (
        "Curie — Passive: if there are 3 or more energy cards of their own or their partner's, "
        "one must be flipped. Onda Radiactiva: counts face-up cards of their own and their "
        "partner's. Isótopos Cargados: counts face-up cards of the rival and their partner. "
        "Física Imposible: wins Speed ties regardless of card types. Salto Analítico: counts "
        "face-down cards of their own and their partner's."
    ),
    "rv.2v2.adjust.mulan": (
        "Mulan — Pinzas de Mantis: the rival who plays the next clash may not play basic cards, "
        "regardless of who plays the clash."
    ),
    "rv.2v2.adjust.darwin": (
        "Darwin — Evolución Definitiva: the links in combo are counted regardless of who is "
        "forming the chain."
    ),
    "rv.2v2.adjust.hansel-gretel": (
        "Hansel & Gretel — Passive: when both players in your play zone have played their card, "
        "choose out loud whether you are going to be HANSEL (candy cane) or GRETEL (cookie). "
        "Carga Crocante - Gretel: its effect only applies to your own cards. Guardia Galleta - "
        "Hansel: you may flip energies of your own or your partner's, but only in the zone "
        "where you play this card."
    ),
    "rv.2v2.adjust.sombrerero": (
        "Sombrerero — Passive: your face-up basic cards in the active zone generate permanent "
        "boosters for the unique cards of yours and of your partner: +1 Damage (teapot) and +1 "
        "Guard (hat). Lluvia de Sombreros: show your cards only to the player you are facing. "
        "That player may not tell their partner which cards you have."
    ),
    # ----------------------------------------------------------------------- rulings
    "rv.ruling.round-setup": (
        "Every round is set up afresh: the fighter's ten cards are gathered, the ultra set "
        "aside face up, the other nine shuffled, five drawn, a new life marker chosen covering "
        "the whole life bar. Effects 'for the next clash' lapse at the end of a round."
    ),
    "rv.ruling.life-marker-hidden": (
        "The life marker is placed face down: its owner knows it, the rivals do not."
    ),
    "rv.ruling.boost-level": (
        "A card receives at most one boost before the reveal: one of the three levels of the "
        "energy table (1, 2 or 3 energy). The oldest energy cards of the line are moved down "
        "first."
    ),
    "rv.ruling.boost-no-winner": (
        "While nobody has won a clash yet in the fight, players with energy decide their boosts "
        "at the same time, in secret."
    ),
    "rv.ruling.clash-winner": (
        "A clash is won by the attacker who deals 1 or more Damage (option clash_winner): an "
        "exchange or a fully guarded or dodged attack has no winner."
    ),
    "rv.ruling.effect-order-tie": (
        "Immediate effects of cards of the same type and Speed: the most recent clash winner's "
        "first, else the lower seat's."
    ),
    "rv.ruling.combo-after-immediate": (
        "Combo bonuses and passive bonuses are counted when the Speeds are compared, after the "
        "immediate effects (which may flip cards of the line). The order of immediate effects "
        "uses the Speed known at the reveal."
    ),
    "rv.ruling.counts": (
        "Effects that count cards 'in play' count the cards of the line other than the cards of "
        "this clash; face-down cards include exhausted ones."
    ),
    "rv.ruling.curie-energy": (
        "Curie's Radiactividad counts and flips the energy cards of earlier clashes: the card of "
        "this clash, flipped by Damage or an exchange or cut by a maximum combo, stays face down."
    ),
    "rv.ruling.flip-cancels": (
        "A flipped card loses its effects still to come (end of clash); immediate effects it "
        "already resolved stand."
    ),
    "rv.ruling.max-combo-end": (
        "The last card of a maximum combo is turned face down at the end of the clash, after "
        "dealing its Damage; face down, it is 1 energy (option max_combo_card)."
    ),
    "rv.ruling.max-combo-cut": (
        "The card after a maximum combo starts a new combo: no chain reaches back to the cut "
        "card, even once an effect turns it face up again (Curie's Radiactividad, Eslabón "
        "Perdido); option max_combo_cut=while-down: only while it is face down."
    ),
    "rv.ruling.double-ko": (
        "If both fighters are K.O. in the same clash (an exchange), the round is a tie: won by "
        "both."
    ),
    "rv.ruling.final-round": (
        "In the final round the first fighter (team) to cause 1 or more Damage wins the fight; "
        "Damage caused by both sides at once (an exchange) decides nothing. In 2vs2 the zones "
        "resolve one at a time, so the first Damage in the order of the zones wins and the "
        "other zone is not resolved (option final_round_zones=in-order; together: Damage by "
        "both teams in the two zones of one clash decides nothing). A final round ending "
        "without a winner is followed by another one, up to the option final_round_limit, "
        "after which the fight is a draw."
    ),
    "rv.ruling.guard-when-damage": (
        "The defender is asked to boost Guard only when the attack would deal Damage and they "
        "have energy; they may spend any amount of it."
    ),
    "rv.ruling.ultra-next-clash": (
        "An ultra card whose icon was uncovered goes to its owner's hand at the start of the "
        "next clash of the round, with the draw."
    ),
    "rv.ruling.dodge": (
        "Esquiva prevents all Damage to its player this clash (an exchange's too). The card "
        "left face up leaves the hand and is its owner's card of the next clash, played face "
        "up before the others choose; on the last clash of a round no card is left."
    ),
    "rv.ruling.pinzas-dodge": (
        "A card left face up by a dodge is already in play: Pinzas de Mantis, which forbids "
        "playing basic cards, does not forbid it (option pinzas_dodge=stands); or a basic card "
        "so left goes back to the hand in sight of everyone and its owner plays from the hand "
        "(pinzas_dodge=back)."
    ),
    "rv.ruling.exchanged-card": (
        "A card swapped in by an exchange (Amague) is the card of this clash for its printed "
        "values, type, link and end-of-clash effects, but its immediate effect does not act: it "
        "was revealed in an earlier clash (option exchanged_card=values); or its immediate "
        "effects act right after the exchange (exchanged_card=effects)."
    ),
    "rv.ruling.your-cards-2v2": (
        "2vs2: a card that counts or acts on 'your' cards in play (energy, exhausted, face-down "
        "cards) means your team's line in your zone, yours and your partner's, unless its text "
        "says only your own."
    ),
    "rv.ruling.no-basic-only-basics": (
        "A player forbidden to play basic cards who holds only basic cards may play one."
    ),
    "rv.ruling.flipped-cards-known": (
        "A flipped card was shown to everyone before it was flipped: players remember it. "
        "Cards never shown — hands, decks, life markers, the cards played face down this clash "
        "before the reveal — stay hidden."
    ),
    "rv.ruling.zones-before-cards": (
        "2vs2: both teams choose their zones in private and at the same time; the zones are "
        "then taken, and only then are the cards played — so each player knows the rival they "
        "face (Lluvia de Sombreros, Pinzas de Mantis)."
    ),
    "rv.ruling.zone-caller": (
        "2vs2: one teammate calls the zones (the first seat of the team on odd clashes, the "
        "second on even ones) after the team has talked; a fighter bound by a face-up dodge "
        "card plays in its zone."
    ),
    "rv.ruling.zone-order": (
        "2vs2: once the cards are down, the team that won a clash most recently (option "
        "zone_order=winner; while nobody has, Team A on odd clashes and Team B on even ones) or "
        "the teams in turn (zone_order=alternate) choose the zone resolved first, through their "
        "zone caller. The first zone is boosted, then the second; the first is resolved, then "
        "the second; the end of the clash goes in the same order. K.O. is checked at the end of "
        "the clash."
    ),
    "rv.ruling.team-life": (
        "2vs2: after the seventh clash the team with more life in total wins the round; equal "
        "totals, both win."
    ),
    "rv.ruling.pinzas-2v2": (
        "2vs2: Pinzas de Mantis binds whichever rival plays in the zone where it was played, "
        "next clash (option pinzas=zone), or whichever rival faces Mulan next clash "
        "(pinzas=facing)."
    ),
    "rv.ruling.persona-order": (
        "Hansel & Gretel choose HANSEL or GRETEL after all cards are down and before any boost; "
        "the choice is public."
    ),
    "rv.ruling.end-order": (
        "End of clash, in each zone: card effects (type priority, then Speed), then the cut of "
        "maximum combos, then fighters' passives; then the draw."
    ),
    "rv.ruling.mirror": (
        "Two players may choose the same fighter unless they are teammates (as if playing with "
        "two boxes)."
    ),
}


def card_rule(card_id: str) -> str:
    """The reference of a card's own text."""
    return f"rv.card.{card_id}"


def fighter_rule(fighter_id: str) -> str:
    """The reference of a fighter's passive ability."""
    return f"rv.fighter.{fighter_id}"
