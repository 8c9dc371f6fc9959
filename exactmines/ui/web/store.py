"""The games in play in one server: each kept as its pickled state, in a bounded store."""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field

__all__ = ["GameStore", "StoredGame", "UnknownGame"]


class UnknownGame(LookupError):
    """No game with that id (never made, or dropped from the bounded store)."""


@dataclass(slots=True)
class StoredGame:
    """A game's pickled :class:`~exactmines.ui.web.games.WebGame` (it travels to a worker
    process for each move and back) and the lock that makes its moves one at a time."""

    state: bytes
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class GameStore:
    """The games in play, at most ``capacity`` (the least recently used is dropped): the
    server's memory stays bounded however many games the page starts. Used from the event
    loop only (no locking of its own)."""

    def __init__(self, capacity: int = 64) -> None:
        self.capacity = capacity
        self._games: OrderedDict[str, StoredGame] = OrderedDict()

    @staticmethod
    def new_id() -> str:
        """A fresh id, unguessable (a game's id is all it takes to play it)."""
        return secrets.token_hex(8)

    def add(self, game_id: str, state: bytes) -> None:
        """Keep a new game, dropping the least recently used past ``capacity``."""
        self._games[game_id] = StoredGame(state)
        while len(self._games) > self.capacity:
            self._games.popitem(last=False)

    def get(self, game_id: str) -> StoredGame:
        """The game ``game_id``, now the most recently used; :class:`UnknownGame` if none."""
        game = self._games.get(game_id)
        if game is None:
            raise UnknownGame(game_id)
        self._games.move_to_end(game_id)
        return game

    def __len__(self) -> int:
        return len(self._games)
