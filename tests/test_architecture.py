"""docs/architecture.md: a game is one folder, and imports only point down."""

from __future__ import annotations

import re
from pathlib import Path

from importlinter.cli import lint_imports

from kumite.core.registry import specs

SRC = Path(__file__).resolve().parents[1] / "src" / "kumite"
TESTS = Path(__file__).resolve().parent


def test_imports_keep_the_layers_and_make_no_cycle():
    """The contracts of pyproject.toml's [tool.importlinter]: core < cards < a game's rules <
    the generic layers < a game's faces < server and command line, no cycle anywhere."""
    config = str(SRC.parents[1] / "pyproject.toml")
    assert lint_imports(config_filename=config, no_cache=True, no_logo=True) == 0


def _naming_a_game() -> re.Pattern[str]:
    own = [s.id for s in specs().values() if s.game.target.startswith("kumite.games.")]
    assert own, "kumite's own games are registered"
    return re.compile(r"\b(" + "|".join(map(re.escape, own)) + r")\b")


def test_no_game_id_outside_the_games_folder():
    """Issue 16: the generic layers name no game; each game's knowledge sits in games/<id>/."""
    word = _naming_a_game()
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted(SRC.rglob("*"))
        if path.suffix in (".py", ".js", ".html", ".css") and "games" not in path.parts
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if word.search(line)
    ]
    assert found == []


#: Test files outside tests/games/ that still name one of kumite's games (issue 29): tests of
#: a generic layer that play one game as their example, and a game's tests not moved yet.
#: Each should play a game drawn from the registry (tests/conformance.py) or move to
#: tests/games/<id>/; the list only shrinks.
NAMING_A_GAME = frozenset(
    [
        "agents/test_agents.py",
        "agents/test_greedy_pinned.py",
        "agents/test_ismcts.py",
        "agents/test_search.py",
        "cards/test_pack.py",
        "cli/test_cli.py",
        "envs/test_cfr.py",
        "envs/test_conventions.py",
        "envs/test_exploit.py",
        "envs/test_gymnasium.py",
        "envs/test_leaks.py",
        "envs/test_observation.py",
        "envs/test_observation_options.py",
        "envs/test_openspiel.py",
        "envs/test_opponents.py",
        "envs/test_pettingzoo.py",
        "envs/test_sb3.py",
        "envs/test_vector.py",
        "server/test_api.py",
        "server/test_bad_input.py",
        "server/test_bot_workers.py",
        "server/test_clocks.py",
        "server/test_collector.py",
        "server/test_durability.py",
        "server/test_hub.py",
        "server/test_limits.py",
        "server/test_lobby.py",
        "server/test_migration.py",
        "server/test_players.py",
        "server/test_protocol.py",
        "server/test_ratings.py",
        "server/test_rematch.py",
        "server/test_scale_out.py",
        "server/test_security.py",
        "server/test_seeds.py",
        "server/test_trust.py",
        "sim/test_balance.py",
        "sim/test_batched.py",
        "sim/test_bench.py",
        "sim/test_cli_balance.py",
        "sim/test_cli_sim.py",
        "sim/test_design.py",
        "sim/test_engine.py",
        "sim/test_ray.py",
        "sim/test_report.py",
        "sim/test_restricted.py",
        "sim/test_strength.py",
        "sim/test_whatif.py",
        "test_determinize.py",
        "web/test_accessibility.py",
        "web/test_board_fit.py",
        "web/test_browser.py",
        "web/test_csp_browser.py",
        "web/test_journeys_browser.py",  # a journey per game and mode, each its own clicks
        "web/test_players_browser.py",
        "web/test_replay_browser.py",
        "web/test_rules_pages.py",
    ]
)


def test_no_game_id_in_the_tests_outside_the_games_folder():
    """Issue 29: a game's tests live in tests/games/<id>/; the suites over every game take
    their games from the registry. No test file outside tests/games/ names a game but those
    still listed in NAMING_A_GAME — and each of those does (a file moved or made generic
    leaves the list)."""
    word = _naming_a_game()
    found = {
        path.relative_to(TESTS).as_posix()
        for path in TESTS.rglob("*.py")
        if path.relative_to(TESTS).parts[0] != "games" and word.search(path.read_text("utf-8"))
    }
    assert sorted(found - NAMING_A_GAME) == [], "a game's tests belong in tests/games/<id>/"
    assert sorted(NAMING_A_GAME - found) == [], "no longer naming a game: leave the list"
