"""``analyze --unique`` answers with the engine ``--backend`` names (every engine has
``layouts_up_to``), and its JSON names that engine, like every other answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exactmines.analysis.backends import get_backend
from exactmines.ui.cli import main

DATA = Path(__file__).parent / "data"
#: Positions with a frontier (so every engine is asked), one of them unique.
POSITIONS = {"reference": (DATA / "reference-9x9.mine").read_text(),
             "needs-count": (DATA / "needs-count.mine").read_text(),
             "unknown-count": (DATA / "unknown-count.mine").read_text(),
             "unique": "3x2x1\n1H1\n111\n"}


@pytest.mark.parametrize("name", POSITIONS)
def test_unique_uses_the_engine_given_and_names_it(backend, capsys, monkeypatch, tmp_path,
                                                   name):
    path = tmp_path / f"{name}.mine"
    path.write_text(POSITIONS[name])
    engine = type(get_backend(backend))
    asked = []
    original = engine.layouts_up_to

    def spied(self, *args, **kwargs):
        asked.append(self.name)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(engine, "layouts_up_to", spied)
    answer = unique_json(capsys, path, backend)
    assert answer["backend"] == get_backend(backend).name
    assert asked and set(asked) == {answer["backend"]}
    sat = unique_json(capsys, path, "sat")
    assert answer["unique"] == sat["unique"] == (name == "unique")
    assert {k: v for k, v in answer.items() if k not in ("backend", "reason")} == \
        {k: v for k, v in sat.items() if k not in ("backend", "reason")}


def unique_json(capsys, path: Path, backend: str) -> dict:
    assert main(["analyze", str(path), "--unique", "--backend", backend,
                 "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_an_engine_past_its_limits_leaves_the_answer_undecided_and_says_which(capsys,
                                                                               monkeypatch):
    from exactmines.analysis.backends.dp import DPBackend
    from exactmines.errors import TooLarge

    def too_wide(self, *args, **kwargs):
        raise TooLarge("component too wide to count exactly")

    monkeypatch.setattr(DPBackend, "layouts_up_to", too_wide)
    answer = unique_json(capsys, DATA / "reference-9x9.mine", "dp")
    assert answer["consistent"] is None and answer["unique"] is None
    assert answer["reason"] == "not decided by dp: component too wide to count exactly"
    assert answer["backend"] == "dp"
