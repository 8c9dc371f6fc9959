"""Draw the documentation's pictures again: the reference position's heat map and the stages
of the analysis of a small position (docs/how-it-works.md), with the package's own pictures.

Usage::

    python scripts/docs_pictures.py               # into docs/images
    python scripts/docs_pictures.py --out DIR

Needs matplotlib (``pip install -e ".[plot]"``). The pictures are committed; run this after
a change to ``exactmines/ui/pictures.py`` or to what the analysis says of these positions.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from exactmines import analyze, instance_path, read_position
from exactmines.ui.pictures import draw_analysis, draw_stages

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images",
                        help="folder for the pictures (default: docs/images)")
    args = parser.parse_args(argv)
    written = draw_stages(read_position(instance_path("stages-8x6")), args.out)
    reference = args.out / "reference-9x9.png"
    draw_analysis(analyze(read_position(instance_path("reference-9x9"))), reference,
                  file="instances/reference-9x9.mine")
    for path in [*written, reference]:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
