"""The win-rate benchmark's command line: a varied run reports itself and its paired change."""
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "bench_play.py"


def bench(*args: str, folder: Path) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *args, "--results", str(folder)],
                          capture_output=True, text=True, check=True)
    return done.stdout


def test_varied_run_reports_its_own_rate_and_the_paired_change(tmp_path: Path) -> None:
    varied = ("run", "beginner-sfar", "--games", "5", "--set", "risk_weight=3/2")
    alone = bench(*varied, folder=tmp_path)
    assert "Strategy best, risk_weight=3/2:" in alone
    assert "| 9x9/10 | SFAR, (0,0) | 5 |" in alone  # the varied file's games, not "not run"
    assert "run both first" in alone  # no plain run yet to compare with
    bench("run", "beginner-sfar", "--games", "5", folder=tmp_path)
    both = bench(*varied, folder=tmp_path)
    assert "| beginner-sfar | beginner-sfar-best-risk_weight=3_2-seed2026 | 5 |" in both
