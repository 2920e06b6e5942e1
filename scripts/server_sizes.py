"""The size of each part of the web table (docs/architecture.md, "The server"): per module of
``src/kumite/server``, its lines, its longest function (a router's closure counts whole),
its longest top-level class, radon's maintainability grade and its most complex function.

    python scripts/server_sizes.py [FOLDER]

Needs radon (not a kumite dependency: ``pip install radon``).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from radon.complexity import cc_visit
from radon.metrics import mi_rank, mi_visit


def sizes(path: Path) -> str:
    source = path.read_text()
    tree = ast.parse(source)
    functions = [
        (node.end_lineno - node.lineno + 1, node.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno
    ]
    classes = [
        (node.end_lineno - node.lineno + 1, node.name)
        for node in tree.body
        if isinstance(node, ast.ClassDef) and node.end_lineno
    ]
    blocks = cc_visit(source)
    complexity = max(((b.complexity, b.name) for b in blocks), default=(0, "-"))
    fn, cls = max(functions, default=(0, "-")), max(classes, default=(0, "-"))
    return (
        f"{len(source.splitlines()):5}  fn {fn[0]:4} {fn[1]:20}  class {cls[0]:4} {cls[1]:16}"
        f"  MI {mi_rank(mi_visit(source, multi=True))}  cc {complexity[0]:3} {complexity[1]}"
    )


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "src/kumite/server")
    for path in sorted(root.rglob("*.py")):
        print(f"{path.relative_to(root)!s:24} {sizes(path)}")


if __name__ == "__main__":
    main()
