"""The documentation site's parts that the build alone would find late: every page in the
navigation, every object of the API reference importable, the OpenAPI copy current and its
endpoints in the API page's table. (The site itself is built by CI: mkdocs build --strict.)"""

from __future__ import annotations

import importlib
import json
import os
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
    names = _documented("api.md") + _documented("engines.md")
    assert "exactmines.analysis.analyze.analyze" in names
    for name in names:
        module, _, attribute = name.rpartition(".")
        try:
            importlib.import_module(name)
        except ModuleNotFoundError:
            assert hasattr(importlib.import_module(module), attribute), name


def _documented(page: str) -> list[str]:
    return re.findall(r"^::: ([\w.]+)", (DOCS / "reference" / page).read_text(), re.M)


def test_the_api_page_lists_exactly_what_the_package_exports():
    # It listed names that do not import from exactmines, and missed ones the README's
    # own examples import from it.
    import exactmines

    names = _documented("api.md")
    assert sorted(n.rpartition(".")[2] for n in names) == sorted(
        set(exactmines.__all__) - {"__version__"})
    for name in names:  # each where it is defined: the very object the package exports
        module, _, attribute = name.rpartition(".")
        assert getattr(importlib.import_module(module), attribute) is getattr(exactmines,
                                                                              attribute)


def test_the_engine_protocol_page_holds_no_public_name():
    import exactmines

    names = {n.rpartition(".")[2] for n in _documented("engines.md")}
    assert names and not names & set(exactmines.__all__)


def test_examples_import_only_the_public_api():
    # What the README and the pages show a user importing is what the API page documents.
    import exactmines

    pages = [ROOT / "README.md", *DOCS.glob("**/*.md")]
    for page in pages:
        text = page.read_text()
        assert not re.findall(r"^>>> from exactmines\.", text, re.M), page
        for imported in re.findall(r"^>>> from exactmines import (.+)$", text, re.M):
            for name in imported.split(","):
                assert name.strip() in exactmines.__all__, (page, name)


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


#: What makes a browser fetch from another host as a page loads: a stylesheet, a preconnect,
#: a script, an image, a font in CSS.
_EXTERNAL_LOAD = re.compile(r"<(?:link|script|img)\b[^>]*\b(?:href|src)=\"(?:https?:)?//[^\"]*\"|"
                            r"url\(\s*[\"']?(?:https?:)?//[^)]*\)")


def test_the_built_site_loads_nothing_from_the_internet(tmp_path):
    # The theme fetched its fonts from Google Fonts: offline, the site waited for them.
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                           "-d", str(site)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr
    pages = [*site.glob("**/*.html"), *site.glob("**/*.css")]
    assert len(pages) > 20
    for page in pages:
        found = _EXTERNAL_LOAD.findall(page.read_text(errors="replace"))
        assert found == [], (page.relative_to(site), found[:3])
        # What the theme's script fetches by itself: mermaid (from unpkg) for a diagram, and
        # the repository's stars and forks (from the GitHub API) when a repo_url is set.
        assert 'class="mermaid"' not in page.read_text(errors="replace"), page
    assert "repo_url" not in (ROOT / "mkdocs.yml").read_text()
