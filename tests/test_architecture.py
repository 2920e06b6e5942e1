"""docs/architecture.md: a game is one folder, and imports only point down."""

from __future__ import annotations

import re
from pathlib import Path

from importlinter.cli import lint_imports

from kumite.core.registry import specs

SRC = Path(__file__).resolve().parents[1] / "src" / "kumite"


def test_imports_keep_the_layers_and_make_no_cycle():
    """The contracts of pyproject.toml's [tool.importlinter]: core < cards < a game's rules <
    the generic layers < a game's faces < server and command line, no cycle anywhere."""
    config = str(SRC.parents[1] / "pyproject.toml")
    assert lint_imports(config_filename=config, no_cache=True, no_logo=True) == 0


def test_no_game_id_outside_the_games_folder():
    """Issue 16: the generic layers name no game; each game's knowledge sits in games/<id>/."""
    own = [s.id for s in specs().values() if s.game.target.startswith("kumite.games.")]
    assert own, "kumite's own games are registered"
    word = re.compile(r"\b(" + "|".join(map(re.escape, own)) + r")\b")
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted(SRC.rglob("*"))
        if path.suffix in (".py", ".js", ".html", ".css") and "games" not in path.parts
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if word.search(line)
    ]
    assert found == []
