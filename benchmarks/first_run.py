"""First run: ``make serve`` on a fresh clone, timed to the server's first answer.

Clones the repository (its current commit) into a temporary folder, runs ``make serve`` there
on a free port, and asks ``GET /`` every 0.2 s until the web table answers. Prints the time
from ``make serve`` to that first answer (the clone apart), beside the size of the
environment it installed (``du`` of ``.venv``) and its largest packages. pip takes its
packages wherever it is configured to (its index, its wheel cache: ``--no-cache`` turns the
cache off for the run). Nothing here asserts a time.

    nice -n 10 python benchmarks/first_run.py [--rev COMMIT] [--python python3] [--no-cache]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def size(path: Path) -> int:
    """Bytes of the files under ``path`` (as ``du -sb``; links not followed)."""
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):  # a file gone meanwhile
                total += os.lstat(os.path.join(folder, name)).st_size
    return total


def answered(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def largest(venv: Path, count: int = 6) -> list[tuple[str, int]]:
    found = list(venv.glob("lib/python*/site-packages"))
    if not found:
        return []
    packages = [p for p in found[0].iterdir() if p.is_dir() and not p.name.endswith("-info")]
    return sorted(((p.name, size(p)) for p in packages), key=lambda x: -x[1])[:count]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default="python3", help="The Python make's venv is made by.")
    parser.add_argument("--no-cache", action="store_true", help="pip without its wheel cache.")
    parser.add_argument("--keep", action="store_true", help="Keep the clone (its path printed).")
    parser.add_argument("--rev", default="HEAD", help="The commit to clone (e.g. a reference).")
    parser.add_argument("--timeout", type=float, default=900.0, help="Give up after (s).")
    args = parser.parse_args()

    commit = subprocess.run(
        ["git", "rev-parse", args.rev], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    work = Path(tempfile.mkdtemp(prefix="kumite-first-run-"))
    clone = work / "kumite"
    begun = time.monotonic()
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "checkout", "--quiet", commit], cwd=clone, check=True)
    cloned = time.monotonic() - begun

    port = free_port()
    env = {**os.environ, "PIP_NO_CACHE_DIR": "1"} if args.no_cache else dict(os.environ)
    env.pop("PYTHONPATH", None)  # the clone's own sources, nothing else
    env.pop("VIRTUAL_ENV", None)
    log = (work / "make-serve.log").open("w")
    started = time.monotonic()
    make = subprocess.Popen(
        ["make", "serve", f"PORT={port}", f"PYTHON={args.python}"],
        cwd=clone,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,  # its process group: make, pip, then the server
    )
    url = f"http://127.0.0.1:{port}/"
    took: float | None = None
    try:
        while time.monotonic() - started < args.timeout:
            if answered(url):
                took = time.monotonic() - started
                break
            if make.poll() is not None:
                break
            time.sleep(0.2)
    finally:
        if make.poll() is None:
            os.killpg(make.pid, signal.SIGINT)
            try:
                make.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(make.pid, signal.SIGKILL)
                make.wait()
        log.close()

    venv = clone / ".venv"
    cache = "off" if args.no_cache else "on"
    print(f"commit {commit[:12]}; clone {cloned:.1f} s; pip cache {cache}")
    if took is None:
        print(f"make serve gave no answer at {url} (exit {make.returncode}); its output:")
        print((work / "make-serve.log").read_text()[-3000:])
        return 1
    print(
        f"make serve on a fresh clone: first answer after {took:.1f} s; "
        f".venv {size(venv) / 2**20:.0f} MiB"
    )
    print("largest packages: " + ", ".join(f"{n} {b / 2**20:.0f} MiB" for n, b in largest(venv)))
    if args.keep:
        print(f"kept {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
