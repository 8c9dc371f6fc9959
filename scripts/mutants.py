"""Mutation sweep: does some test fail when the code is subtly wrong?

Usage::

    python scripts/mutants.py exactmines/analysis.py exactmines/combine.py \\
        --mutants 10 --seed 0 --workers 2 --out results/mutants.jsonl

For each file, ``--mutants`` sites are drawn (seeded) among its arithmetic, comparison and
boolean operators, small integer constants (0, 1, 2) and ``not``s, annotations excepted;
each mutant changes one site (``+`` to ``-``, ``<`` to ``<=``, ``and`` to ``or``, 1 to 0,
``not x`` to ``x``, ...) in a private copy of the tree, and the test command (``python -m
pytest -x -q``, or ``--pytest``) runs there. A mutant the tests pass *survived*: either a
test is missing (a test that cannot fail is a defect) or the mutant is equivalent (it
changes speed only, or nothing: read its diff). The working tree is never written.

One JSON line per mutant goes to ``--out`` as it finishes, so an interrupted sweep keeps
what it did, and a rerun skips the mutants already there (keyed by the file's content).
The survivors are listed at the end with their diffs.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import hashlib
import json
import os
import queue
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

SWAPS: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.And: ast.Or, ast.Or: ast.And,
    ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.LShift: ast.RShift,
    ast.RShift: ast.LShift}
CONSTANTS = {0: 1, 1: 0, 2: 3}
IGNORED = shutil.ignore_patterns(".git", ".ci", "results", "__pycache__", "*.egg-info",
                                 ".hypothesis", ".mypy_cache", ".ruff_cache", ".pytest_cache")


def _annotation_nodes(tree: ast.AST) -> set[int]:
    """Ids of the nodes inside annotations (never evaluated under postponed annotations)."""
    found: list[ast.expr | None] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            found += [node.returns] + [arg.annotation for arg in (
                *a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if arg]
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return {id(n) for ann in found if ann is not None for n in ast.walk(ann)}


def sites(tree: ast.AST) -> list[ast.AST]:
    """The nodes a mutant may change, in ``ast.walk`` order."""
    skip = _annotation_nodes(tree)
    out: list[ast.AST] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if (isinstance(node, ast.BinOp | ast.AugAssign | ast.BoolOp)
                and type(node.op) in SWAPS
                or isinstance(node, ast.Compare) and type(node.ops[0]) in SWAPS
                or isinstance(node, ast.Constant) and type(node.value) is int
                and node.value in CONSTANTS
                or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
            out.append(node)
    return out


def mutant(source: str, site: int) -> tuple[str, int, list[str]]:
    """``source`` with site number ``site`` changed: ``(text, line, diff lines)``."""
    tree = ast.parse(source)
    node = sites(tree)[site]
    line = node.lineno  # type: ignore[attr-defined]
    if isinstance(node, ast.Compare):
        node.ops[0] = SWAPS[type(node.ops[0])]()
    elif isinstance(node, ast.Constant):
        assert isinstance(node.value, int)
        node.value = CONSTANTS[node.value]
    elif isinstance(node, ast.UnaryOp):
        tree = _Unwrap(node).visit(tree)
    else:
        node.op = SWAPS[type(node.op)]()  # type: ignore[attr-defined]
    text = ast.unparse(tree)
    diff = [d for d in difflib.unified_diff(ast.unparse(ast.parse(source)).splitlines(),
                                            text.splitlines(), lineterm="", n=0)
            if d[:1] in "-+" and d[:3] not in ("---", "+++")]
    return text + "\n", line, diff


class _Unwrap(ast.NodeTransformer):
    """``not x`` to ``x`` at one node."""

    def __init__(self, target: ast.AST) -> None:
        self.target = target

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        return node.operand if node is self.target else node


def _run(copy: Path, rel: str, text: str, command: list[str], timeout: float) -> str:
    path = copy / rel
    original = path.read_text()
    path.write_text(text)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(copy), *filter(None, [os.environ.get("PYTHONPATH")])])}
    try:
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, timeout=timeout)
        return "survived" if done.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        return "timeout"
    finally:
        path.write_text(original)


def sweep(root: Path, files: list[str], per_file: int, seed: int, workers: int,
          out: Path, command: list[str], timeout: float) -> list[dict[str, Any]]:
    """Run the mutants not yet in ``out``; return every row of ``out`` for ``files``."""
    rows = []
    for line in out.read_text().splitlines() if out.exists() else []:
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:  # a line cut short by a kill: that mutant runs again
            continue
    done = {(r["file"], r["source"], r["site"]) for r in rows}
    todo = []
    keys = {}  # the tree is never written: a file's key holds for the whole sweep
    for rel in files:
        source = (root / rel).read_text()
        key = keys[rel] = hashlib.sha1(source.encode()).hexdigest()[:12]
        count = len(sites(ast.parse(source)))
        for site in random.Random(f"{seed}:{rel}").sample(range(count), min(per_file, count)):
            if (rel, key, site) not in done:
                todo.append((rel, key, site, source))
    copies: queue.Queue[Path] = queue.Queue()
    temporary = [Path(tempfile.mkdtemp(prefix="mutants-")) for _ in range(workers)]
    try:
        for t in temporary:
            shutil.copytree(root, t / "tree", ignore=IGNORED)
            copies.put(t / "tree")

        def one(rel: str, key: str, site: int, source: str) -> dict[str, Any]:
            text, line, diff = mutant(source, site)
            copy = copies.get()
            started = time.perf_counter()
            try:
                outcome = _run(copy, rel, text, command, timeout)
            finally:
                copies.put(copy)
            return {"file": rel, "source": key, "site": site, "line": line, "diff": diff,
                    "outcome": outcome, "seconds": round(time.perf_counter() - started, 1)}

        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("a") as sink, ThreadPoolExecutor(workers) as pool:
            if out.stat().st_size and not out.read_bytes().endswith(b"\n"):
                sink.write("\n")  # after a line cut short, start a fresh one
            futures = [pool.submit(one, *job) for job in todo]
            try:
                for n, future in enumerate(as_completed(futures), 1):
                    row = future.result()
                    sink.write(json.dumps(row) + "\n")
                    sink.flush()
                    rows.append(row)
                    print(f"[{n}/{len(todo)}] {row['file']}:{row['line']} {row['outcome']} "
                          f"({row['seconds']} s)", file=sys.stderr)
            except KeyboardInterrupt:
                for future in futures:
                    future.cancel()
                raise
    finally:
        for t in temporary:
            shutil.rmtree(t, ignore_errors=True)
    return [r for r in rows if keys.get(r["file"]) == r["source"]]


def summary(rows: list[dict[str, Any]]) -> str:
    tally = {k: sum(r["outcome"] == k for r in rows) for k in ("killed", "timeout", "survived")}
    lines = [f"{len(rows)} mutants: {tally['killed']} killed, {tally['timeout']} timed out "
             f"(caught, slowly), {tally['survived']} survived"]
    for r in sorted((r for r in rows if r["outcome"] == "survived"),
                    key=lambda r: (r["file"], r["line"])):
        lines.append(f"  {r['file']}:{r['line']}")
        lines += [f"      {d.strip()}" for d in r["diff"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="source files, relative to --root")
    parser.add_argument("--mutants", type=int, default=10, help="mutants per file")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds before a test run counts as hung")
    parser.add_argument("--root", type=Path, default=Path.cwd())
    parser.add_argument("--out", type=Path, default=Path("results/mutants.jsonl"))
    parser.add_argument("--pytest", default="-x -q -p no:cacheprovider",
                        help="arguments for python -m pytest")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    for rel in args.files:
        if not (root / rel).is_file():
            print(f"mutants: {root / rel}: no such file", file=sys.stderr)
            return 2
    command = [sys.executable, "-m", "pytest", *shlex.split(args.pytest)]
    try:
        rows = sweep(root, args.files, args.mutants, args.seed, max(1, args.workers),
                     args.out, command, args.timeout)
    except KeyboardInterrupt:
        print(f"interrupted; finished mutants are in {args.out}", file=sys.stderr)
        return 130
    print(summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
