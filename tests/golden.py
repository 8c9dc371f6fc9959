"""Write the golden JSON for tests/data/*.mine (run by hand after a deliberate change):

    python tests/golden.py

The brute-force engine writes them; tests/test_cli.py checks every backend against them and
checks the files themselves against the oracle, so a wrong golden file cannot hide.
"""

from __future__ import annotations

import json
from pathlib import Path

from exactmines.ui.cli import main

DATA = Path(__file__).parent / "data"
VOLATILE = ("seconds", "backend", "file")


def normalised(document: dict) -> dict:
    return {k: v for k, v in document.items() if k not in VOLATILE}


if __name__ == "__main__":
    import contextlib
    import io

    for path in sorted(DATA.glob("*.mine")):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            main(["analyze", str(path), "--backend", "brute", "--format", "json"])
        document = normalised(json.loads(buffer.getvalue()))
        path.with_suffix(".json").write_text(json.dumps(document, indent=1) + "\n")
        print(path.with_suffix(".json"))
