"""The mutation sweep script, on a toy tree whose tests miss one boundary on purpose."""
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "mutants.py"

TOY = """def add(a: int, b: int) -> int:
    return a + b


def small(x):
    return x < 2
"""
TESTS = """from toy import add, small


def test_add():
    assert add(2, 3) == 5


def test_small():
    assert small(0) and not small(5)
"""


def sweep(root: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), "toy.py", "--root", str(root),
                           "--out", str(out), "--mutants", "10", "--workers", "2"],
                          capture_output=True, text=True, check=True)


def test_sweep_kills_the_tested_survives_the_untested_and_resumes(tmp_path: Path) -> None:
    root, out = tmp_path / "tree", tmp_path / "mutants.jsonl"
    root.mkdir()
    (root / "toy.py").write_text(TOY)
    (root / "test_toy.py").write_text(TESTS)
    done = sweep(root, out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    # Three sites, annotations excepted: a + b (tested), x < 2 and the constant 2 (the
    # tests never look at x = 1 or 2, so both changes pass them).
    outcome = {tuple(r["diff"]): r["outcome"] for r in rows}
    assert outcome == {
        ("-    return a + b", "+    return a - b"): "killed",
        ("-    return x < 2", "+    return x <= 2"): "survived",
        ("-    return x < 2", "+    return x < 3"): "survived"}
    assert "3 mutants: 1 killed, 0 timed out (caught, slowly), 2 survived" in done.stdout
    assert "toy.py:6" in done.stdout and "[3/3]" in done.stderr
    assert (root / "toy.py").read_text() == TOY  # the tree is never written
    again = sweep(root, out)  # resumed: nothing left to run, the same summary
    assert len(out.read_text().splitlines()) == 3 and "[1/" not in again.stderr
    assert "3 mutants: 1 killed" in again.stdout
    # A sweep killed mid-line: the cut line's mutant runs again, the others are kept.
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:2]) + "\n" + lines[2][:20])
    resumed = sweep(root, out)
    assert "[1/1]" in resumed.stderr and "3 mutants: 1 killed" in resumed.stdout
    assert "[1/" not in sweep(root, out).stderr  # and the rerun's line is whole


def test_missing_file_is_refused(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "nope.py", "--root", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "nope.py: no such file" in done.stderr
    assert done.stdout == ""
