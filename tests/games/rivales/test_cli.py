"""Rivales on the command line and in the terminal: play (1vs1, 2vs2, people and bots),
replay, cards, rules, and the 2vs2 team chat."""

from __future__ import annotations

import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kumite.cli.main import app
from kumite.games.rivales import tui
from kumite.games.rivales.game import GAME

runner = CliRunner()


def kumite(*args, input=None):
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def test_play_1v1_bots_record_and_replay_json_with_rounds_won(tmp_path):
    path = tmp_path / "fight.json"
    result = kumite(
        "play",
        "rivales",
        "--players",
        "greedy,random",
        "--seed",
        "3",
        "--record",
        str(path),
        "--json",
    )
    assert result.exit_code == 0, result.output
    played = json.loads(result.output)
    assert played["outcome"]["mode"] == "1v1"
    assert sum(played["outcome"]["rounds_won"]) >= 2
    replayed = json.loads(kumite("replay", str(path), "--json").output)
    assert replayed["outcome"] == played["outcome"]
    assert replayed["outcome"]["rounds_won_by_seat"] == played["outcome"]["rounds_won"]
    assert replayed["events"][0]["type"] == "FighterChosen"
    assert any(e["type"] == "RoundStarted" for e in replayed["events"])
    assert all({"step", "type", "rule", "text"} <= set(e) for e in replayed["events"])
    assert [s["life"] for s in replayed["seats"]] == played["outcome"]["lives"]


def test_play_2v2_bots_and_replay_names_the_winning_team(tmp_path):
    path = tmp_path / "team.json"
    result = kumite(
        "play",
        "rivales",
        "--mode",
        "2v2",
        "--players",
        "greedy,greedy,random,random",
        "--fighters",
        "zorro,curie,mulan,darwin",
        "--seed",
        "4",
        "--record",
        str(path),
        "--json",
    )
    assert result.exit_code == 0, result.output
    outcome = json.loads(result.output)["outcome"]
    assert outcome["teams"] == [[0, 1], [2, 3]]
    assert outcome["winners"] in ([0, 1], [2, 3], [])
    replayed = json.loads(kumite("replay", str(path), "--json").output)
    assert replayed["outcome"]["rounds_won"] == outcome["rounds_won"]
    assert any(e["type"] == "ZonesTaken" for e in replayed["events"])


def test_play_shows_each_clash_explained_with_its_rule():
    result = kumite(
        "play", "rivales", "--players", "greedy,greedy", "--fighters", "zorro,curie", "--seed", "1"
    )
    assert result.exit_code == 0
    assert "reveals" in result.output and "[rv.speed." in result.output
    assert "Result" in result.output and "rounds won" in result.output


def test_human_plays_1v1_against_the_bot_by_numbers():
    result = kumite(
        "play",
        "rivales",
        "--players",
        "human,greedy",
        "--fighters",
        "mulan,darwin",
        "--seed",
        "2",
        input="1\n" * 400,
    )
    assert result.exit_code == 0, result.output
    assert "life marker" in result.output
    assert "Your hand" in result.output and "♥" in result.output
    assert "Result" in result.output


def test_human_with_a_bot_teammate_sees_the_team_rules():
    result = kumite(
        "play",
        "rivales",
        "--players",
        "human,greedy,random,random",
        "--seed",
        "6",
        "--fighters",
        "sombrerero,hansel-gretel,zorro,curie",
        input="1\n" * 600,
    )
    assert result.exit_code == 0, result.output
    assert "Team talk (2vs2 rules)" in result.output
    assert "Your partner is a bot" in result.output
    assert "Zone 1" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "random,random,random"], "2 (1vs1) or 4 (2vs2) seats"),
        (["--mode", "3v3", "--players", "random,random"], "--mode must be 1v1 or 2v2"),
        (["--players", "random,random", "--fighters", "zorro"], "one fighter per seat"),
        (["--players", "random,random", "--fighters", "zorro,batman"], "unknown fighter 'batman'"),
        (["--players", "random,random", "--rule", "pinzas=sideways"], "rivales options"),
        (["--players", "random,random", "--rule", "final_round_limit=x"], "needs a number"),
    ],
)
def test_bad_input_is_a_one_line_error(args, words):
    result = runner.invoke(app, ["play", "rivales", *args])
    assert result.exit_code == 2
    assert words in result.output


def test_rules_options_reach_the_game(tmp_path):
    path = tmp_path / "g.json"
    result = kumite(
        "play",
        "rivales",
        "--players",
        "random,random",
        "--seed",
        "2",
        "--quiet",
        "--record",
        str(path),
        "--rule",
        "clash_winner=attacker",
        "--rule",
        "final_round_limit=2",
    )
    assert result.exit_code == 0
    options = json.loads(path.read_text())["options"]
    assert options["clash_winner"] == "attacker" and options["final_round_limit"] == 2


def test_cards_json_lists_fighters_and_cards_with_provenance():
    data = json.loads(kumite("cards", "rivales", "--json").output)
    assert [f["id"] for f in data["fighters"]] == [
        "zorro",
        "curie",
        "mulan",
        "darwin",
        "hansel-gretel",
        "sombrerero",
    ]
    assert len(data["cards"]) == 40
    for card in data["cards"]:
        assert set(card["provenance"]) >= {
            "name",
            "type",
            "speed",
            "damage",
            "guard",
            "link",
            "text",
        }
    marca = next(c for c in data["cards"] if c["id"] == "zorro.la-marca")
    assert marca["provenance"]["name"]["from"] == "rulebook"
    assert marca["provenance"]["speed"]["from"] == "reconstructed"
    assert data["rules"]["clashes_per_round"]["from"] == "rulebook"


def test_cards_table_marks_reconstructed_values():
    result = kumite("cards", "rivales", "--only", "zorro")
    assert result.exit_code == 0
    assert "La Marca" in result.output and "†" in result.output
    assert "Curie" not in result.output


def test_cards_table__reconstructed_names_carry_a_dagger_and_copies_are_shown():
    """Honest marks in ``kumite cards rivales``: Estocada† (reconstructed name), La Marca (the
    rulebook's), the copies of each card in a deck (×1) and the legend of the marks."""
    result = kumite("cards", "rivales", "--only", "zorro")
    lines = result.output.splitlines()
    estocada = next(line for line in lines if "Estocada" in line)
    assert "Estocada†" in estocada and "×1" in estocada
    assert "La Marca†" not in result.output and "La Marca" in result.output
    assert sum("×1" in line for line in lines) == 10  # four basic cards, five unique, one ultra
    assert "† reconstructed" in result.output and "copies in a fighter's deck" in result.output


def test_rules_lists_clauses_rulings_and_2v2_adjustments():
    result = kumite("rules", "rivales")
    assert "rv.ruling.double-ko" in result.output
    assert "rv.2v2.adjust.zorro" in result.output


# ----------------------------------------------------------------------- team chat
def test_team_chat_refuses_naming_a_card_in_hand_accents_and_case_ignored():
    hand = [GAME.catalog().cards["curie.fisica"], GAME.catalog().cards["basic.golpe"]]
    assert tui.TeamChat.refused("go zone 2, I have fisica imposible", hand)
    assert tui.TeamChat.refused("GOLPE ready", hand)
    assert tui.TeamChat.refused("their zone 1 has 2 energy, take it", hand) is None


def test_team_chat_between_two_humans_delivers_messages_and_shows_the_rules(monkeypatch):
    state = GAME.new_state(3, {"mode": "2v2", "fighters": ["zorro", "curie", "mulan", "darwin"]})
    options = state.options_json
    console = Console(record=True, width=100)
    one = tui.FRONT_END.human(console, GAME, options, 0, "Player 1")
    two = tui.FRONT_END.human(console, GAME, options, 1, "Player 2")
    state.apply({d.seat: d.legal[0] for d in state.pending()})
    hand_card = GAME.catalog().cards[state.view(0)["players"][0]["hand"][0]]
    answers = iter([f"I hold {hand_card.name}", "zone 2 has energy for you", "", "1"])
    monkeypatch.setattr("rich.prompt.Prompt.ask", lambda *a, **k: next(answers))
    monkeypatch.setattr("rich.prompt.IntPrompt.ask", lambda *a, **k: 1)
    choice = one.choose(state.view(0), state.pending()[0])
    assert choice == "zone:1"
    chat = tui.team_chat(options, 0)
    assert [m[2] for m in chat.messages] == ["zone 2 has energy for you"]
    answers = iter([""])
    two._talk(state.view(1))
    text = console.export_text()
    assert "Not sent" in text and "Team talk (2vs2 rules)" in text
    assert "zone 2 has energy for you" in text


def _table(mode: str = "1v1", seat: int = 0) -> str:
    fighters = ["zorro", "curie"] if mode == "1v1" else ["zorro", "curie", "mulan", "darwin"]
    state = GAME.new_state(2, {"mode": mode, "fighters": fighters})
    state.apply({d.seat: d.legal[0] for d in state.pending()})  # life markers
    console = Console(record=True, width=140)
    console.print(tui.render(state.view(seat), GAME.catalog()))
    return console.export_text()


def test_terminal_table__shows_your_fighter_card_and_the_rivals():
    """The terminal shows each fighter card: life, ultra icon, combo bonuses by link, the
    maximum combo and the passive, marked; the rival's as well as yours."""
    text = _table()
    zorro, curie = GAME.catalog().fighters["zorro"], GAME.catalog().fighters["curie"]
    assert "your fighter card: Zorro" in text and "fighter card: Curie" in text
    for f in (zorro, curie):
        assert f"{f.passive_name}†" in text
        assert f"maximum combo {f.max_combo} links†" in text
    assert "1st link +1 Speed" in text


def test_terminal_table__names_are_marked_copies_shown_and_the_legend_is_there():
    """Every terminal table with a marked value shows the legend; the hand lists copies."""
    for mode, seat in (("1v1", 0), ("1v1", None), ("2v2", 2)):
        text = _table(mode, seat)
        assert "† reconstructed" in text and "* estimate" in text, (mode, seat)
    text = _table()
    hand = text[text.index("Your hand") :]
    assert "×1" in hand and "†" in hand


def test_terminal_2v2__the_zone_order_is_asked_and_shown():
    """rv.ruling.zone-order in the terminal: the caller is asked which zone goes first, with
    the web table's labels; the table then says which zone is resolved first."""
    result = kumite(
        "play",
        "rivales",
        "--mode",
        "2v2",
        "--players",
        "human,greedy,greedy,greedy",
        "--fighters",
        "zorro,curie,mulan,darwin",
        "--seed",
        "6",
        input="1\n" * 600,
    )
    assert result.exit_code == 0, result.output
    assert "Choose the zone resolved first" in result.output
    assert "Zone 1 first, then Zone 2" in result.output
    assert "(resolved first)" in result.output
