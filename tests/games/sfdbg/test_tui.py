"""The SF DBG terminal front end: table rendering, choice labels, the human agent."""

from __future__ import annotations

import io
import random

from rich.console import Console

from kumite.cli.options import game_options, settings_from
from kumite.core.registry import get_spec
from kumite.games.sfdbg import tui
from kumite.games.sfdbg.actions import vocabulary
from kumite.games.sfdbg.game import GAME

CATALOG = GAME.catalog()


def text(renderable) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def played(seed: int, variant: str = "standard", steps: int = 150):
    state = GAME.new_state(seed, {"players": 3, "variant": variant})
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        (d,) = state.pending()
        state.apply({d.seat: rng.choice(d.legal)})
    return state


def test_every_choice_has_a_plain_english_label():
    view = GAME.new_state(1, {"players": 2}).view(0)
    for choice in vocabulary(CATALOG).choices:
        assert str(tui.label(choice, CATALOG, view)).strip(), choice


def test_the_table_shows_hand_power_line_up_stacks_and_players():
    state = played(2)
    view = state.view(0)
    out = text(tui.render(view, CATALOG))
    assert "Power" in out and "Line-Up" in out and "Kicks" in out and "Your hand" in out
    assert "Player 2" in out and "Player 3" in out
    for card in view["players"][0]["hand"]:
        assert CATALOG.by_id[card].name in out


def test_face_down_super_heroes_stay_face_down_on_the_table():
    out = text(tui.render(played(3, "secret-heroes", 5).view(1), CATALOG))
    assert "(face-down Super Hero)" in out and "face-down Ultras" in out


def test_the_end_of_the_game_shows_each_players_vp():
    state = GAME.new_state(4, {"players": 2, "round_limit": 1})
    while not state.is_terminal:
        (d,) = state.pending()
        state.apply({d.seat: "end"})
    out = text(tui.render(state.view(None), CATALOG))
    assert "Game over" in out and "VP" in out


def test_the_human_agent_answers_from_the_menu(monkeypatch):
    state = GAME.new_state(5, {"players": 2})
    (decision,) = state.pending()
    monkeypatch.setattr(tui, "pick", lambda console, title, options, label: options[-1])
    human = tui.HumanSFDBG(Console(file=io.StringIO()), CATALOG)
    assert human.choose(state.view(decision.seat), decision) == "end"


def test_a_single_choice_is_answered_without_asking(monkeypatch):
    from tests.games.sfdbg.scenario import act, position

    s = position(hands={0: ["gill"], 1: ["punch"]})
    act(s, "play:gill")
    (decision,) = s.pending()

    def no_menu(*args):
        raise AssertionError("asked")

    monkeypatch.setattr(tui, "pick", no_menu)
    human = tui.HumanSFDBG(Console(file=io.StringIO()), CATALOG)
    assert human.choose(s.view(1), decision) == "no-defense"


def test_command_line_settings_become_options():
    spec = get_spec("sfdbg")
    extra = ["--heroes", "ryu,-,any", "--variant=high-powered"]
    settings = settings_from(spec, None, ["round_limit=12"], None, extra)
    options = game_options(spec, GAME, settings, 3)
    assert options == {
        "players": 3,
        "round_limit": 12,
        "heroes": ["ryu", None, None],
        "variant": "high-powered",
    }
    GAME.new_state(0, options)


# -- honest marks and copies where players look -------------------------------------------


def legend_lines(out: str) -> list[str]:
    return [line for line in tui.MARKS_LEGEND if line[:20] in out]


def test_the_table_shows_the_marks_legend():
    """Every table with a marked value (the Line-Up's reconstructed texts †) explains the
    marks, for a seat and for a spectator."""
    state = played(2)
    for seat in (0, None):
        out = text(tui.render(state.view(seat), CATALOG))
        assert "†" in out and len(legend_lines(out)) == 3


def test_the_hand_shows_each_card_once_with_its_copies():
    from tests.games.sfdbg.scenario import position

    s = position(hands={0: ["punch", "punch", "punch", "vulnerability", "kick"]})
    out = text(tui.render(s.view(0), CATALOG))
    assert "Punch ×3" in out and "Kick" in out and "Kick ×" not in out
    assert out.count("No effect.") == 1  # one Vulnerability row, no ×1
    assert "Your hand (5)" in out


def test_kicks_estimated_type_carries_its_mark_and_printed_variable_vp_is_a_star():
    kick = CATALOG.by_id["kick"]
    assert "Super Power*" in str(tui.card_details(kick))
    agents = CATALOG.by_id["agents-of-shadaloo"]
    assert "★ VP" in str(tui.card_details(agents)) and "* VP" not in str(tui.card_details(agents))
    assert tui.value(agents, "vp") == "★"


def test_stages_show_their_number_with_its_mark():
    """Stage 1 is the rulebook's (America); Stages 2-8 are ordered by an estimate."""
    from tests.games.sfdbg.scenario import position

    s = position(stages=["japan", "usa"], hands={0: ["hong-kong"]})
    out = text(tui.render(s.view(0), CATALOG))
    assert "Stage 3*: Japan (cost 9, 6 VP; 2 Stages left)" in out
    assert "Location, Stage 2*" in out  # Hong Kong in the hand
    assert tui.type_of(CATALOG.by_id["usa"]) == "Location, Stage 1"


def test_every_face_up_counter_attack_is_on_the_table_with_its_mark():
    state = GAME.new_state(6, {"players": 3, "heroes": ["ryu", "vega", "dhalsim"]})
    out = text(tui.render(state.view(0), CATALOG))
    for hero in ("ryu", "vega", "dhalsim"):
        assert CATALOG.hero_by_id[hero].counter_text.split(": ", 1)[1][:30] in out
    assert "Counter-Attack: The attacker gains a Weakness.†" in out  # Ryu's, seat 0's own
    assert "Counter-Attack: The attacker can't buy any more cards this turn.†" in out
    secret = text(
        tui.render(GAME.new_state(6, {"players": 3, "variant": "secret-heroes"}).view(0), CATALOG)
    )
    assert "Counter-Attack" not in secret  # face down: unknown, even to their owner


def test_the_board_is_shown_when_you_must_defend(monkeypatch):
    from tests.games.sfdbg.scenario import act, position

    s = position(heroes=["ryu", "vega"], hands={0: ["gill"], 1: ["sakura", "punch"]})
    act(s, "play:gill")
    (decision,) = s.pending()
    assert decision.kind == "defend"
    monkeypatch.setattr(tui, "pick", lambda console, title, options, label: options[0])
    console = Console(file=io.StringIO(), width=120, color_system=None)
    tui.HumanSFDBG(console, CATALOG).choose(s.view(1), decision)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Line-Up" in out and "Your hand (2)" in out and "in play: Gill" in out
    assert "The attacker gains a Weakness.†" in out  # the attacker's Counter-Attack


def test_an_ultra_used_as_a_defense_says_where_it_went():
    from kumite.tui.console import event_line
    from tests.games.sfdbg.scenario import act, position

    s = position(heroes=["ken", "ryu"], hands={0: ["gill"], 1: ["metsu-hadoken", "sakura"]})
    events = act(s, "play:gill", "defend:metsu-hadoken")
    lines = [str(event_line(e)) for e in events if e.kind == "AttackAvoided"]
    assert lines and "(Metsu Hadoken is shuffled into his deck)" in lines[0]
    s = position(hands={0: ["gill"], 1: ["metsu-hadoken"]}, variant="secret-heroes")
    events = act(s, "play:gill", "defend:metsu-hadoken")
    assert "(Metsu Hadoken is discarded (Secret Heroes))" in str(
        event_line(next(e for e in events if e.kind == "AttackAvoided"))
    )


def test_turn_lines_carry_no_rule_tag_and_your_own_draw_is_printed_once():
    from kumite.tui.console import print_events
    from tests.games.sfdbg.scenario import act, position

    s = position(decks={0: ["seth", "punch", "punch", "punch", "punch"]})
    events = act(s, "end")
    for seat, names in ((0, True), (1, False), (None, False)):
        console = Console(file=io.StringIO(), width=200, color_system=None)
        print_events(console, events, seat)
        out = console.file.getvalue()  # type: ignore[attr-defined]
        draws = [line for line in out.splitlines() if "Player 1 draws" in line]
        assert len(draws) == 1, (seat, draws)
        assert ("Seth" in draws[0]) == names
        turn = next(line for line in out.splitlines() if "— Turn 2" in line)
        assert "[" not in turn, turn


def test_the_stage_boss_counter_attacking_you_is_on_the_table_with_its_mark():
    from tests.games.sfdbg.scenario import act, position

    s = position(heroes=["ryu", "ken"], hands={0: ["sakura"]}, power=7)
    guile = CATALOG.hero_by_id["guile"].index
    s.bosses = [b for b in s.bosses if b != guile] + [guile]
    act(s, "challenge")
    out = text(tui.render(s.view(0), CATALOG))
    assert "Stage Boss: Guile — Counter-Attack: The attacker loses 3 Power.†" in out
