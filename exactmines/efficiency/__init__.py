"""Efficiency: the fewest clicks that clear a board whose every mine is known (ZiNi)."""
