"""The suite itself: the examples in docstrings run, and a machine without the optional
packages skips what needs them instead of failing to collect."""

from __future__ import annotations

import ast
import doctest
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import kumite

ROOTS = {"kumite": Path(kumite.__file__).parent, "tests": Path(__file__).parent}
EXAMPLE = re.compile(r"^\s*>>> ", re.MULTILINE)


def documented() -> list[tuple[str, Path]]:
    """Every module (of kumite, and of the tests' helpers) with an example in a docstring."""
    out = []
    for package, root in ROOTS.items():
        for path in sorted(root.rglob("*.py")):
            if EXAMPLE.search(path.read_text("utf-8")):
                parts = path.relative_to(root).with_suffix("").parts
                out.append((".".join((package, *parts)), path))
    return out


DOCUMENTED = documented()


def test_the_examples_are_found():
    """The modules whose docstrings show an example (a bound memo, a Rivales clash, an SF
    Rivals position, an SF DBG scenario) are all found, wherever the build put them."""
    assert len(DOCUMENTED) >= 4


@pytest.mark.parametrize(("name", "path"), DOCUMENTED, ids=[n for n, _ in DOCUMENTED])
def test_docstring_examples_run(name: str, path: Path) -> None:
    """Each ``>>>`` example of the module's docstrings gives what it shows. The docstrings are
    read from the source (a compiled module keeps them too, but not where doctest looks)
    and run in the module's namespace."""
    module = importlib.import_module(name)
    tree = ast.parse(path.read_text("utf-8"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    nodes = [
        n for n in ast.walk(tree) if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef)
    ]
    for node in nodes:
        text = ast.get_docstring(node, clean=True)
        if text and EXAMPLE.search(text):
            line = node.body[0].lineno if node.body else 0
            example = parser.get_doctest(
                text, dict(vars(module)), f"{name}:{line}", str(path), line
            )
            runner.run(example, out=report.append)
    results = runner.summarize(verbose=False)
    assert results.attempted > 0
    assert results.failed == 0, "".join(report)


@pytest.mark.slow
def test_without_the_optional_packages_the_suite_collects_and_skips_them():
    """tests/conftest.py: with every optional package hidden (tests/without_optional.py), the
    whole suite still collects — the modules that need one are skipped, naming what installs
    it — and no collection error."""
    root = Path(__file__).parents[1]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.without_optional", "--collect-only", "-q",
         "-p", "no:cacheprovider", str(root / "tests")],
        capture_output=True, text=True, cwd=root, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "error" not in done.stdout.splitlines()[-1]
    assert "needs the optional package pettingzoo (pip install 'kumite[rl]')" in done.stdout
