"""The fault finder (``analysis/fault.py``) and the advice (``play/advice.py``) read the
numbers of 10 and more that topologies with many neighbours show (``a`` = 10 ...), as every
other reader does (``Position.number``)."""

from __future__ import annotations

from fractions import Fraction

from exactmines.analysis.analyze import analyze
from exactmines.analysis.backends import get_backend
from exactmines.analysis.fault import find_fault
from exactmines.io.formats import position_from_text
from exactmines.play.advice import advise

# A 3x3x3 cube: its centre (layer 1, row 1, col 1: row 4 of the rows) touches the 26 others.
COVERED_LAYER = "HHH\nHHH\nHHH\n"


def test_a_number_of_ten_with_too_little_room_is_named():
    # The centre shows 10 with only the 9 cells of layer 0 covered around it.
    position = position_from_text(f"3x3x3 cube\n{COVERED_LAYER}\n000\n0a0\n000\n\n"
                                  "000\n000\n000\n")
    fault = find_fault(position, get_backend("auto"))
    assert fault is not None
    assert fault.clues == ((4, 1),) and not fault.count
    assert fault.message == ("inconsistent: the 10 at layer 1, row 1, col 1 has 0 flags and 9 "
                             "covered cells around it")


def test_the_advice_reads_a_number_of_ten():
    # The centre's 10 is the only number: every other cell is a mine with probability
    # 10/26. The player sees that number and guesses among them (not a first click).
    position = position_from_text(f"3x3x3x10 cube\n{COVERED_LAYER}\nHHH\nHaH\nHHH\n\n"
                                  f"{COVERED_LAYER}")
    advice = advise(position, analyze(position))
    assert advice.recommendation is not None
    assert advice.recommendation.kind == "frontier"
    assert advice.recommendation.probability == Fraction(5, 13)
    assert [row.probability for row in advice.candidates] == [Fraction(5, 13)] * 5
