"""A griffe extension for the API reference: the docstrings' Sphinx roles as plain code.

The docstrings cross-reference with Sphinx roles (``:func:`~exactmines.errors.OutOfTime```),
which editors and ``help()`` read well but mkdocstrings would print as they are. Here each
becomes the code it names (`` `OutOfTime` ``: a leading ``~`` keeps the last part only).
Loaded by mkdocs.yml; not part of the site (``exclude_docs``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")


def plain(text: str) -> str:
    """``text`` with every Sphinx role replaced by the code it names."""
    return _ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", text)


class SphinxRoles(griffe.Extension):
    """Rewrite each object's docstring as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
