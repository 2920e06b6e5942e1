"""Helpers shared by the CLI commands."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

import typer
from rich.markup import escape

from kumite.core.errors import KumiteError
from kumite.core.extras import extra_of
from kumite.tui.console import err_console

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a one-line error and return the exit to raise."""
    # escape: a message may quote a pack's own "[rules]" or "[[cards]]"
    err_console.print(f"[bold red]error:[/bold red] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


def friendly_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn kumite's own errors into a one-line message and exit code 2."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except KumiteError as exc:
            raise fail(str(exc)) from None
        except KeyboardInterrupt:
            # Ctrl-C (at a prompt, say): end the line it was typed on, so that the shell's
            # prompt starts on its own line; no traceback; the shell's code for SIGINT
            err_console.print()
            raise typer.Exit(130) from None
        except ModuleNotFoundError as exc:
            # a path to an optional package that no check above foresaw: still one line
            top = (exc.name or "").split(".")[0]
            extra = extra_of(top)
            if extra is None:
                raise
            raise fail(f"this needs {top} (not installed): pip install 'kumite[{extra}]'") from None

    return wrapper


def new_seed() -> int:
    return secrets.randbelow(2**31)


def split_list(value: str | None) -> list[str]:
    if not value:
        return []
    return [v.strip() for v in value.split(",") if v.strip()]
