"""The documentation site's parts that the build alone would find late: every page in the
navigation, every object of the API reference importable, the OpenAPI copy current and its
endpoints in the API page's table. (The site itself is built by CI: mkdocs build --strict.)"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"


def test_every_page_is_in_the_navigation():
    nav = set(re.findall(r"(\S+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), flags=re.M))
    pages = {str(p.relative_to(DOCS)) for p in DOCS.glob("**/*.md")}
    assert pages == nav


def test_every_object_of_the_api_reference_exists():
    names = re.findall(r"^::: ([\w.]+)", (DOCS / "reference" / "api.md").read_text(), re.M)
    assert "exactmines.analysis.analyze.analyze" in names
    for name in names:
        module, _, attribute = name.rpartition(".")
        try:
            importlib.import_module(name)
        except ModuleNotFoundError:
            assert hasattr(importlib.import_module(module), attribute), name


def test_the_openapi_copy_is_what_the_server_publishes():
    pytest.importorskip("fastapi")
    from exactmines.ui.web.app import create_app

    shipped = json.loads((DOCS / "openapi.json").read_text())
    assert shipped == create_app().openapi(), "run: python scripts/openapi.py"


def test_the_openapi_script_writes_the_copy(tmp_path):
    out = tmp_path / "openapi.json"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "openapi.py"), "--out", str(out)],
                   check=True, capture_output=True, cwd=ROOT)
    assert out.read_text() == (DOCS / "openapi.json").read_text()


def test_the_api_page_lists_every_endpoint():
    """Each row of the table: `METHOD /path`, then `/other` paths beside it (a path of its
    own, or the last part of the first path replaced)."""
    schema = json.loads((DOCS / "openapi.json").read_text())
    listed = set()
    for cell in re.findall(r"^\| (`(?:GET|POST) [^|]*)\|", (DOCS / "http-api.md").read_text(),
                           flags=re.M):
        first, *others = re.findall(r"`([^`]+)`", cell)
        method, path = first.split()
        listed.add((method.lower(), path))
        for other in others:
            listed.add((method.lower(), other if other.startswith("/api/")
                        else path.rsplit("/", 1)[0] + other))
    published = {(method, path) for path, methods in schema["paths"].items()
                 for method in methods}
    assert published == listed
