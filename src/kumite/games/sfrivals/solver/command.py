"""``kumite solve sfrivals``: SF Rivals' own solver flags (the spec's ``solver`` face).

The command line adds the flags every game shares (the matchup as ``--characters`` or
``--pick``, ``--option``, ``--pack``, ``--json``) and hands them over as a
:class:`~kumite.core.spec.SolveRequest`; this module stays light (the solver itself, Numba's
kernels included, is imported only when a command runs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kumite.core.errors import OptionsError
from kumite.core.spec import SolveRequest

app = typer.Typer(add_completion=False)


@app.command()
def solve(
    ctx: typer.Context,
    all_matchups: Annotated[
        bool, typer.Option("--all", help="Every matchup: the table of certified intervals.")
    ] = False,
    out: Annotated[Path, typer.Option(help="--all: where to write CSV, JSON and PNG.")] = Path("."),
    cache: Annotated[bool, typer.Option(help="Use and fill the on-disk solution cache.")] = True,
    strength: Annotated[
        bool, typer.Option(help="Exact best response to each agent instead (strength table).")
    ] = False,
    agents: Annotated[
        str | None, typer.Option(help="--strength: agents to rate, e.g. random,greedy.")
    ] = None,
    method: Annotated[
        str, typer.Option(help="tight (secret covers; default) or adaptive (see docs/solver.md).")
    ] = "tight",
    exact: Annotated[
        bool, typer.Option(help="A small variant (--pack mini): the exact value, by LP.")
    ] = False,
) -> None:
    """Solve SF Rivals: a matchup's certified value interval, exploitability and set-up
    strategy; every matchup's table (--all); exact best responses to agents (--strength); a
    small variant's exact value (--exact). See docs/solver.md."""
    request = ctx.find_object(SolveRequest)
    if request is None:
        raise OptionsError("run it as kumite solve sfrivals")
    from kumite.games.sfrivals.solver.cli import run

    names = [a.strip() for a in (agents or "").split(",") if a.strip()]
    run(
        request.picks, all_matchups, request.options, out, cache, strength, names, request.json,
        method=method, exact=exact,
    )  # fmt: skip
