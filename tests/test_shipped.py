"""The instances shipped inside the package: found by name, listed, and the repository's own
``instances/`` folder (the package's copy is a link to it, so the two cannot drift)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exactmines import instance_names, instance_path, read_position
from exactmines.io.shipped import FOLDER
from exactmines.ui.cli import main

ROOT = Path(__file__).parent.parent


def test_the_package_ships_the_repository_instances():
    assert FOLDER.resolve() == (ROOT / "instances").resolve()
    names = instance_names()
    on_disk = sorted(p.name for p in (ROOT / "instances").glob("*.mine"))
    assert set(on_disk) <= set(names)
    assert not any(n.endswith((".json", ".md")) for n in names)


@pytest.mark.parametrize("name", ["reference-9x9", "reference-9x9.mine"])
def test_an_instance_is_found_with_or_without_its_extension(name):
    path = instance_path(name)
    assert path == FOLDER / "reference-9x9.mine"
    assert read_position(path).width == 9


def test_the_command_lists_them_and_prints_a_path(capsys):
    assert main(["instances"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{len(instance_names())} instances in {FOLDER} (its README.md says " \
                       "what each is for):"
    assert "  reference-9x9.mine" in lines[1:]
    assert main(["instances", "reference-9x9"]) == 0
    assert capsys.readouterr().out == f"{FOLDER / 'reference-9x9.mine'}\n"
    assert main(["instances", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"folder": str(FOLDER),
                                                   "instances": instance_names()}
    assert main(["instances", "reference-9x9", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "name": "reference-9x9.mine", "path": str(FOLDER / "reference-9x9.mine")}


def test_an_unknown_name_is_one_line_and_exit_2(capsys):
    assert main(["instances", "nope"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("exactmines: error: command line: NAME nope: no shipped instance "
                            "of that name; 'exactmines instances' lists them\n")
