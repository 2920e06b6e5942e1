"""The optional parts of kumite and the packages each needs (pyproject.toml's extras).

``pip install kumite`` (and ``make serve``) plays and serves every game with the default
bots; the SF Rivals solver and its bots need the ``solver`` extra, the lab (``kumite sim``,
``balance``, ``report``) the ``lab`` extra. Whatever needs one checks here first and says in
one line what to install, instead of failing on an import deep inside.
"""

from __future__ import annotations

import importlib.util

from kumite.core.errors import KumiteError

#: Extra -> the top-level modules it installs (tests check this against pyproject.toml).
EXTRAS: dict[str, tuple[str, ...]] = {
    "solver": ("numba", "scipy"),
    "lab": ("numba", "scipy", "matplotlib", "cma"),
}


class MissingExtraError(KumiteError, ValueError):
    """Something asked for needs packages of an extra that is not installed."""


def installed(module: str) -> bool:
    """Whether top-level ``module`` can be imported here (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def missing(extra: str) -> list[str]:
    """The packages of ``extra`` that are not installed."""
    return [m for m in EXTRAS[extra] if not installed(m)]


def require(extra: str, what: str) -> None:
    """Raise :class:`MissingExtraError` (one line: what, what is missing, what installs it)
    unless every package of ``extra`` is installed."""
    absent = missing(extra)
    if absent:
        raise MissingExtraError(
            f"{what} needs {', '.join(absent)} (not installed): pip install 'kumite[{extra}]'"
        )


def extra_of(module: str) -> str | None:
    """The smallest extra that installs top-level ``module``, if any."""
    having = [e for e, modules in EXTRAS.items() if module in modules]
    return min(having, key=lambda e: len(EXTRAS[e]), default=None)
