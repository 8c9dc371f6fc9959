"""Whole games: the player (``strategy``) with the exact counts it needs (``lookahead``), the
exact endgame search (``endgame``), long-term 50/50 risk (``fifty_patterns``), and many games
in a run (``games``)."""
