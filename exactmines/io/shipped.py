"""The instances shipped inside the package, so that an installed exactmines has positions
and boards to work on without a clone of its repository.

They are the repository's ``instances/`` folder (its ``README.md`` says what each file is
and the command that made it), installed as package data in ``exactmines/instances``. Each
instance is a file of a board format (``.mine`` for positions and boards), most with a
``.json`` of metadata and ground truth of the same name beside it.

>>> from exactmines.io.shipped import instance_path
>>> instance_path("reference-9x9").name
'reference-9x9.mine'
"""

from __future__ import annotations

from pathlib import Path

from exactmines.errors import ParameterError

__all__ = ["FOLDER", "instance_names", "instance_path"]

#: Where the package's instances are on disk.
FOLDER = Path(__file__).resolve().parent.parent / "instances"

#: Files in the folder that are not instances: metadata beside them, and the description.
_NOT_INSTANCES = {".json", ".md"}


def instance_names() -> list[str]:
    """The file names of the shipped instances (``reference-9x9.mine``, ...), sorted.

    Cost: one listing of the folder.
    """
    return sorted(p.name for p in FOLDER.iterdir()
                  if p.is_file() and p.suffix.lower() not in _NOT_INSTANCES)


def instance_path(name: str) -> Path:
    """The path of the shipped instance ``name``: a file name, or the same without its
    extension (``reference-9x9``).

    Raises :class:`~exactmines.errors.ParameterError` (parameter ``name``) naming the choices
    when there is no such instance.
    """
    names = instance_names()
    if name in names:
        return FOLDER / name
    same_stem = [n for n in names if Path(n).stem == name]
    if len(same_stem) == 1:
        return FOLDER / same_stem[0]
    raise ParameterError("name", name, "no shipped instance of that name; "
                                       "'exactmines instances' lists them")
