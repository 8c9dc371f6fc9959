"""The examples in the docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import sys
from pathlib import Path

import pytest


def _source_module(name):
    """The module as its Python source runs, also where a compiled extension is what an
    import gives (setup.py): doctest finds no examples in compiled functions."""
    module = importlib.import_module(name)
    path = Path(module.__file__)
    if path.suffix == ".py":
        return module
    source = path.parent / (name.rsplit(".", 1)[1] + ".py")
    spec = importlib.util.spec_from_file_location(f"{name}_source", source)
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = loaded  # dataclasses look their module up there
    try:
        spec.loader.exec_module(loaded)
    finally:
        del sys.modules[spec.name]
    return loaded


@pytest.mark.parametrize("name", ["exactmines", "exactmines.analysis.frontier", "exactmines.game",
                                  "exactmines.io.shipped",
                                  "exactmines.play.strategy"])
def test_docstring_examples(name):
    module = _source_module(name)
    result = doctest.testmod(module)
    assert result.attempted > 0, f"{name} has no examples: drop it from this list"
    assert result.failed == 0


def test_every_public_name_resolves_and_is_loaded_only_when_used():
    import subprocess

    import exactmines

    for name in exactmines.__all__:
        assert getattr(exactmines, name) is not None
    # In a fresh interpreter, the package alone loads no engine or player module.
    code = ("import sys, exactmines; "
            "print(sorted(m for m in sys.modules if m.startswith('exactmines')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout
    assert loaded.strip() == "['exactmines', 'exactmines.version']"
