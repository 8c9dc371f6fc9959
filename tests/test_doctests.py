"""The examples in the docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["exactmines", "exactmines.analysis.frontier", "exactmines.game",
                                  "exactmines.play.strategy"])
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.attempted > 0, f"{name} has no examples: drop it from this list"
    assert result.failed == 0
