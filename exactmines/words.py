"""Words for counts, the one way every message and report says "1 cell", "2 cells"."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, word: str, words: str | None = None, fmt: str = "") -> str:
    """``"1 mine"``, ``"0 mines"``, ``"2 boxes"`` (give ``words`` where ``s`` is wrong);
    ``fmt`` formats the count (``","``: ``"1,024 bytes"``)."""
    return f"{count:{fmt}} {word if count == 1 else words or word + 's'}"
