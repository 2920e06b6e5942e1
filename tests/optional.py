"""The optional packages some tests use, and how a test says it needs one (tests/conftest.py
skips a test module that imports a missing one; ``@pytest.mark.needs(...)`` skips a test that
needs one only when it runs)."""

from __future__ import annotations

import importlib.util

#: Top-level module -> what installs it.
OPTIONAL = {
    "pettingzoo": "pip install 'kumite[rl]'",
    "gymnasium": "pip install 'kumite[rl]'",
    "pyspiel": "pip install 'kumite[openspiel]'",
    "open_spiel": "pip install 'kumite[openspiel]'",
    "ray": "pip install 'kumite[ray]'",
    "openskill": "pip install 'kumite[serve]'",
    "psycopg": "pip install 'kumite[postgres]'",
    "playwright": "pip install 'kumite[test]'",
    "axe_playwright_python": "pip install 'kumite[test]'",
    "stable_baselines3": "pip install stable-baselines3",
    "sb3_contrib": "pip install sb3-contrib",
}


def missing_optional(*modules: str) -> str | None:
    """The first of ``modules`` that cannot be imported here, or ``None``."""
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            return name
    return None


def skip_reason(name: str) -> str:
    return f"needs the optional package {name} ({OPTIONAL.get(name, 'not installed')})"
