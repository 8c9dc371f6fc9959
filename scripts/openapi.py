"""Write the web server's OpenAPI schema, as ``exactmines serve`` publishes it at
``/openapi.json``, to the documentation (docs/openapi.json), so the site links the schema of
its own version without a running server.

Usage::

    python scripts/openapi.py                  # docs/openapi.json
    python scripts/openapi.py --out FILE

Needs the web extra (``pip install -e ".[web]"``). ``tests/test_readme.py`` fails while the
file differs from what the app publishes: run this after changing an endpoint.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from exactmines.ui.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "docs" / "openapi.json"


def schema_text() -> str:
    """The schema as the file holds it: sorted keys, indented, one newline at the end."""
    return json.dumps(create_app().openapi(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=SCHEMA, help="default: docs/openapi.json")
    args = parser.parse_args(argv)
    args.out.write_text(schema_text())
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
