"""The head-to-head script: boards out, games in, paired by their first different guess."""
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "versus.py"


def versus(*args: object) -> str:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, check=True).stdout


def test_boards_play_and_compare_on_the_same_boards(tmp_path: Path) -> None:
    boards, ours = tmp_path / "boards.jsonl", tmp_path / "ours.jsonl"
    versus("boards", "beginner-sfar", "--games", 6, "--out", boards)
    dealt = [json.loads(line) for line in boards.read_text().splitlines()]
    assert [b["id"] for b in dealt] == list(range(6))
    assert all(len(b["mines"]) == 10 and 0 not in b["mines"] for b in dealt)  # (0,0) safe
    versus("play", "beginner-sfar", "--games", 6, "--out", ours)
    played = [json.loads(line) for line in ours.read_text().splitlines()[1:]]  # after meta
    assert sorted(g["id"] for g in played) == list(range(6))
    # A "player" that wins every board, guessing nothing: it differs wherever ours guessed.
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_text("".join(json.dumps({"id": i, "won": True, "log": []}) + "\n"
                              for i in range(6)))
    same = versus("compare", ours, ours)
    assert "6 boards" in same and "+0.00 (± 0.00) points" in same
    lost = sum(not g["won"] for g in played)
    other = versus("compare", ours, theirs)
    assert f"theirs - exactmines {100 * lost / 6:+.2f}" in other
    never = sum(not g["log"] for g in played)
    assert (f"| never (same guesses) | {never} |" in other) == bool(never)
