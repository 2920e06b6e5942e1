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
from kumite.core.registry import get_game
from tests.hidden import HEAVY

PYPROJECT = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text("utf-8"))
SOLVER_BOTS = {"bounded", "belief", "belief-safe", "equilibrium"}


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


def test_a_bot_whose_extra_is_missing_is_not_offered_and_asking_for_it_names_the_extra(
    monkeypatch,
):
    game = get_game("sfrivals")
    assert set(agent_names("sfrivals")) >= SOLVER_BOTS  # installed here: offered
    real = extras.installed
    monkeypatch.setattr(extras, "installed", lambda m: m != "numba" and real(m))
    offered = agent_names("sfrivals")
    assert SOLVER_BOTS.isdisjoint(offered)
    assert {"random", "greedy", "ismcts"} <= set(offered)
    with pytest.raises(MissingExtraError) as refused:
        make_agent("bounded", game, {}, 0, 1)
    assert str(refused.value) == (
        "the sfrivals bot 'bounded' needs numba (not installed): pip install 'kumite[solver]'"
    )
    make_agent("greedy", game, {}, 0, 1)  # the default bots still play
