"""``kumite solve GAME``: one sub-command per game that ships a solver.

A game's solver is a face of its own (its spec's ``solver``: a Typer app of one command with
the game's own flags: a method, an exact mode, a strength table...). This module
adds the flags every game shares — the picks (``--pick`` or the role's flag), ``--option``
(and the spec's shorthands), ``--pack``, ``--json`` — and hands what they say to the game's
command as a :class:`~kumite.core.spec.SolveRequest`. The faces are loaded lazily: only the
game named on the command line (or every one, for ``kumite solve --help``).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from kumite.cli.common import fail, friendly_errors
from kumite.cli.options import OptionOpt, PickOpt, PlaySettings, game_options, settings_from
from kumite.core.errors import KumiteError, OptionsError
from kumite.core.registry import specs
from kumite.core.spec import GameSpec, SolveRequest

#: Unknown flags (the role's own, ``--characters``, and the spec's shorthands) reach the
#: command as extra arguments, read by :func:`~kumite.cli.options.settings_from`.
GAME_FLAGS = {"allow_extra_args": True, "ignore_unknown_options": True}


def _shared(
    pick: PickOpt = None,
    option: OptionOpt = None,
    pack: Annotated[
        Path | None,
        typer.Option(help="Your own pack over the shipped one, or a variant it ships (mini)."),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The flags every game's solver shares (their parameters, made by Typer)."""


_SHARED_APP = typer.Typer(add_completion=False)
_SHARED_APP.command()(_shared)


class SolveGroup(TyperGroup):
    """The games with a solver, each command built from its face when first asked for."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [s.id for s in specs().values() if s.solver is not None]

    def get_command(self, ctx: Any, name: str) -> TyperCommand | None:
        spec = specs().get(name)
        if spec is None or spec.solver is None:
            return None
        own = typer.main.get_command(spec.solver.load())
        return GameSolveCommand(
            spec,
            spec.id,
            context_settings=GAME_FLAGS,
            callback=None if own.callback is None else friendly_errors(own.callback),
            params=[*typer.main.get_command(_SHARED_APP).params, *own.params],
            help=own.help,
            short_help=f"Solve {spec.name}.",
        )

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        # ``kumite solve --characters X,Y``: the first game with a solver, as before there
        # was a sub-command per game.
        games = self.list_commands(ctx)
        if args and games and args[0].startswith("-") and args[0] not in ("--help", "-h"):
            args = [games[0], *args]
        return super().parse_args(ctx, args)


class GameSolveCommand(TyperCommand):
    """``kumite solve <id>``: the game's own command with the shared flags added; what they
    say reaches it as a :class:`~kumite.core.spec.SolveRequest` (``ctx.obj``)."""

    def __init__(self, spec: GameSpec, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.spec = spec

    def invoke(self, ctx: Any) -> Any:
        values = ctx.params
        shared = {k: values.pop(k) for k in _SHARED_NAMES}
        try:
            spec = self.spec
            settings = settings_from(
                spec, shared["pick"], shared["option"] or [], shared["pack"], ctx.args
            )
            options = _options(spec, settings)
        except KumiteError as exc:
            raise fail(str(exc)) from None
        ctx.obj = SolveRequest(settings.pick, options, shared["json_out"])
        return super().invoke(ctx)


_SHARED_NAMES = ("pick", "option", "pack", "json_out")


def _options(spec: GameSpec, settings: PlaySettings) -> dict[str, Any]:
    """The game's options (the role left out) for the picks' number of seats, or else for
    the fewest seats they fit (a mode may need more than the fewest the game takes)."""
    game = spec.load()
    info = game.info
    counts = (
        [len(settings.pick)] if settings.pick else range(info.min_players, info.max_players + 1)
    )
    unpicked = dataclasses.replace(settings, pick=[])
    error: OptionsError | None = None
    for n in counts:
        try:
            return game_options(spec, game, unpicked, n)
        except OptionsError as exc:
            error = error or exc
    assert error is not None
    raise error


app = typer.Typer(
    cls=SolveGroup,
    name="solve",
    help="Solve a game that ships a solver (kumite games lists its faces): kumite solve GAME "
    "--help lists the game's own flags (docs/solver.md).",
    no_args_is_help=True,
)
