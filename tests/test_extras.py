"""The optional parts (kumite.core.extras, issue 30): what ``make serve`` installs leaves
out the solver's and the lab's libraries; the bots and commands that need them say which
extra installs them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from kumite.agents.registry import agent_names, make_agent
from kumite.core import extras
from kumite.core.extras import EXTRAS, MissingExtraError
from kumite.core.registry import get_game, specs
from tests.hidden import HEAVY

PYPROJECT = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text("utf-8"))


def names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=\[; ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_core_dependencies_leave_out_the_solver_and_the_lab():
    """``make serve`` installs the core and the ``serve`` extra: neither brings numba,
    SciPy, matplotlib or cma."""
    project = PYPROJECT["project"]
    served = names(project["dependencies"]) | names(project["optional-dependencies"]["serve"])
    assert served.isdisjoint(HEAVY)


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_each_extra_installs_the_modules_kumite_checks_for(extra):
    assert names(PYPROJECT["project"]["optional-dependencies"][extra]) == set(EXTRAS[extra])


def test_the_test_tools_install_every_extra_the_suite_tests():
    tools = names(PYPROJECT["project"]["optional-dependencies"]["test"])
    assert set().union(*EXTRAS.values()) <= tools


#: The bots the games ship that need an extra (SF Rivals' solver bots).
EXTRA_BOTS = [(spec.id, bot) for spec in specs().values() for bot in spec.bots if bot.extra]


def test_some_bots_need_an_extra():
    assert EXTRA_BOTS


@pytest.mark.parametrize(("game_id", "bot"), EXTRA_BOTS, ids=[b.name for _, b in EXTRA_BOTS])
def test_a_bot_whose_extra_is_missing_is_not_offered_and_asking_for_it_names_the_extra(
    monkeypatch, game_id, bot
):
    game = get_game(game_id)
    assert bot.name in agent_names(game_id)  # installed here: offered
    needed = EXTRAS[bot.extra]
    real = extras.installed
    monkeypatch.setattr(extras, "installed", lambda m: m not in needed and real(m))
    offered = agent_names(game_id)
    assert bot.name not in offered
    assert "random" in offered  # the generic bots still play
    with pytest.raises(MissingExtraError) as refused:
        make_agent(bot.name, game, {}, 0, 1)
    assert str(refused.value) == (
        f"the {game_id} bot {bot.name!r} needs {', '.join(needed)} (not installed): "
        f"pip install 'kumite[{bot.extra}]'"
    )
    make_agent("random", game, {}, 0, 1)
