"""Every click of a replay judged exactly (exactmines.replay.judge)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import ms_toollib
import pytest
from oracle import _placements, chance_any, neighbours_of, truth

from exactmines.budget import Budget
from exactmines.errors import InputError
from exactmines.io.files import read_replay
from exactmines.io.replays import Figures, Replay, ReplayEvent
from exactmines.position import Board, Position
from exactmines.replay.judge import (
    EARLY,
    FIRST,
    FORCED,
    NEEDLESS,
    SAFE,
    UNDER_FLAG,
    UNJUDGED,
    Click,
    Judgement,
    judge_replay,
)

DATA = Path(__file__).parent / "data" / "replays"
READABLE = sorted(p for folder in ("public", "recorded") for p in (DATA / folder).iterdir()
                  if not p.name.startswith("damaged"))
SMALL = sorted((DATA / "recorded").glob("*-small-*.evf"))


@pytest.mark.parametrize("path", READABLE, ids=lambda p: p.name)
def test_the_walk_sees_every_board_ms_toollib_sees(path):
    # ms_toollib follows the mouse through its own model of the game; playing the clicks
    # read from the file on the file's board (flags stop the flood, as in the programs) must
    # show the player exactly the board ms_toollib shows before each of them.
    judged = judge_replay(read_replay(path))
    video = getattr(ms_toollib, {"avf": "AvfVideo", "rmv": "RmvVideo", "evf": "EvfVideo",
                                 "mvf": "MvfVideo"}[path.suffix[1:]])(str(path))
    video.parse()
    video.analyse()
    seen = [e.prior_game_board.game_board for e in video.events
            if e.event.is_mouse() and e.useful_level >= 1]
    shown = {10: "H", 11: "F"}
    assert len(seen) == len(judged.clicks)
    for board, click in zip(seen, judged.clicks, strict=True):
        assert tuple("".join(shown.get(v, str(v)) for v in row) for row in board) == \
            click.before.rows
    assert judged.won == video.is_completed


def _analysed(position: Position, trust_flags: bool) -> Position:
    if trust_flags:
        return position
    return Position(position.width, position.height, position.mines,
                    tuple(row.replace("F", "H") for row in position.rows))


@pytest.mark.parametrize("trust_flags", [False, True])
@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_every_click_of_a_small_replay_agrees_with_brute_force(path, trust_flags):
    replay = read_replay(path)
    judged = judge_replay(replay, trust_flags=trust_flags)
    assert judged.clicks[0].judged in (FIRST, None)
    opening = judged.opening
    assert opening[0].judged == FIRST and opening[0].probability is None
    luck = Fraction(1)
    for click in judged.clicks:
        assert click.mine == any(c in replay.board.mine_cells for c in click.opens)
        if click.judged in (None, FIRST):
            continue
        position = _analysed(click.before, trust_flags)
        expected = truth(position)
        if not expected.consistent:  # only a trusted wrong flag can do that
            assert trust_flags and click.judged == UNJUDGED and click.probability is None
            continue
        probability = chance_any(position, set(click.opens))
        assert click.probability == probability
        safe = [c for c, v in expected.verdict.items() if v == "safe"]
        # None: proved safe by the local rules, without the whole position's analysis.
        assert click.safe_cells in (len(safe), None)
        assert click.safe_cells is not None or (click.judged == SAFE and not trust_flags)
        assert click.safest == min(p for p in expected.probability.values()
                                   if p is not None)
        unresolvable = bool(safe) and probability and _unresolvable(position, click.opens)
        assert click.judged == (SAFE if probability == 0 else FORCED if unresolvable
                                else NEEDLESS if safe else FORCED)
        assert (click.reason == "50/50 taken early") == bool(unresolvable)
        if click.guess:
            assert click.excess == probability - click.safest
            if not click.mine:
                luck *= 1 - probability
        else:
            assert click.excess is None
    assert judged.luck == luck


def _unresolvable(position: Position, opens) -> bool:
    """Brute force: the one opened cell ``x`` has a partner ``o`` such that every layout
    puts one mine in the two, the layout with it swapped fits too, and every other safe
    cell sees the same number in both (no click can ever tell them apart)."""
    if len(opens) != 1:
        return False
    (x,) = opens
    around = neighbours_of(position)
    covered, _, fitting = _placements(position)
    layouts = {frozenset(m) for m in fitting}

    def number(mines, y):
        return sum(n in mines or position.rows[n[0]][n[1]] == "F" for n in around[y])

    for o in covered:
        if o == x:
            continue
        ok = True
        for mines in layouts:
            if (x in mines) == (o in mines):
                ok = False
                break
            swapped = mines ^ {x, o}
            if swapped not in layouts or any(
                    number(mines, y) != number(swapped, y)
                    for y in covered if y not in mines and y not in (x, o)):
                ok = False
                break
        if ok:
            return True
    return False


def test_the_small_replays_hold_every_kind_of_click():
    # What the brute-force test above covers: needless and forced guesses, chords whose
    # chance is a joint one (a wrong flag next to the number), and chords that lost.
    judged = [judge_replay(read_replay(path)) for path in SMALL]
    clicks = [c for j in judged for c in j.clicks]
    assert any(c.judged == NEEDLESS for c in clicks)
    assert any(c.judged == FORCED for c in clicks)
    assert any(c.reason == EARLY for c in clicks)  # a 50/50 taken early, safe cells on offer
    assert any(c.kind == "chord" and c.probability not in (None, 0, 1) for c in clicks)
    assert any(c.kind == "chord" and c.mine for c in clicks)
    assert any(c.kind == "left" and c.mine for c in clicks)
    assert any(j.won for j in judged) and not all(j.won for j in judged)


def test_a_wrong_flag_misleads_the_analysis_only_when_trusted():
    # clumsy seed 21 chords next to a wrong flag and loses: untrusted, the chord is a guess;
    # trusted, the wrong flag makes the chord look safe and the note says what happened.
    path = DATA / "recorded" / "clumsy-small-5x5x4-seed21-v0.evf"
    fair = judge_replay(read_replay(path))
    trusting = judge_replay(read_replay(path), trust_flags=True)
    assert fair.lost_at is not None and fair.lost_at.kind == "chord"
    assert fair.lost_at.probability == Fraction(1, 2) and fair.lost_at.guess
    lost = trusting.lost_at
    assert lost is not None and lost.judged in (SAFE, UNJUDGED)
    assert lost.judged == UNJUDGED or "a trusted flag was wrong" in lost.note


BOARD = Board(4, 3, frozenset({(0, 3), (2, 0)}))
#   0 0 1 *
#   1 1 1 1
#   * 1 0 0


def _replay(*events: tuple[str, tuple[int, int]], board: Board = BOARD,
            mode: str = "standard", completed: bool = True) -> Replay:
    return Replay("made.evf", "evf", board,
                  tuple(ReplayEvent(float(i), kind, cell)  # type: ignore[arg-type]
                        for i, (kind, cell) in enumerate(events)),
                  "p", "s", mode, completed, Figures(0, 0.0, None, 0, 0, 0), "ms_toollib")


def test_a_game_judged_by_hand():
    # After the opening at (2, 3) the 1 at (2, 1) puts one mine on (1, 0) or (2, 0), which
    # is the 1 at (1, 1)'s mine too: (0, 0), (0, 1) and (0, 2) are certainly safe.
    judged = judge_replay(_replay(("left", (2, 3)), ("left", (1, 0)), ("left", (0, 0))))
    first, guess, safe = judged.clicks
    assert (first.judged, first.opens, first.probability) == (FIRST, ((2, 3),), None)
    assert (guess.judged, guess.probability, guess.safest, guess.safe_cells) == \
        (NEEDLESS, Fraction(1, 2), 0, 3)
    assert (guess.note, guess.reason) == ("0,0 was certainly safe", "")
    assert guess.excess == Fraction(1, 2) and not guess.mine
    assert (safe.judged, safe.probability, safe.excess) == (SAFE, 0, None)
    assert judged.won and judged.lost_at is None
    assert judged.luck == Fraction(1, 2)
    assert judged.luck_log10 == pytest.approx(math.log10(2))
    assert judged.largest_excess is guess and judged.riskiest is guess
    assert (judged.count(FIRST), judged.count(SAFE), judged.count(NEEDLESS)) == (1, 1, 1)


def test_a_needless_guess_names_its_safe_cell_and_counts_apart_one_under_a_flag():
    # The same guess at (1, 0) after wrong flags on the safe cells: with one safe cell left
    # unflagged the note names it; with all three flagged the note says so and the guess is
    # counted apart (the flags are not trusted: the cells stay certainly safe).
    flags = [("right", cell) for cell in [(0, 0), (0, 1), (0, 2)]]
    some = judge_replay(_replay(("left", (2, 3)), *flags[:2], ("left", (1, 0)))).clicks[-1]
    assert (some.judged, some.note, some.reason) == (NEEDLESS, "0,2 was certainly safe", "")
    every = judge_replay(_replay(("left", (2, 3)), *flags, ("left", (1, 0))))
    guess = every.clicks[-1]
    assert (guess.judged, guess.reason) == (NEEDLESS, UNDER_FLAG)
    assert guess.note == "0,0 was certainly safe, under the player's flag"
    from exactmines.replay.serialize import judgement_to_dict

    data = judgement_to_dict(every)
    assert (data["needless_under_flag"], data["forced_early"]) == (1, 0)


def test_a_loss():
    judged = judge_replay(_replay(("left", (2, 3)), ("left", (2, 0)), completed=False))
    click = judged.clicks[1]
    assert click.mine and judged.lost_at is click and not judged.won
    assert (click.judged, click.probability) == (NEEDLESS, Fraction(1, 2))
    assert judged.luck == 1  # the losing click is not a guess survived


def test_a_forced_guess():
    # 3x1 with one mine: the first click in the middle shows 1, the mine is at either end.
    board = Board(3, 1, frozenset({(0, 0)}))
    judged = judge_replay(_replay(("left", (0, 1)), ("left", (0, 2)), board=board))
    click = judged.clicks[1]
    assert (click.judged, click.probability, click.safest, click.excess) == \
        (FORCED, Fraction(1, 2), Fraction(1, 2), 0)
    assert judged.won and judged.luck == Fraction(1, 2)


def test_a_chord_whose_first_cell_floods_the_rest_and_wins():
    # One mine at (0, 0); the 1 at (0, 1) is chorded over a flag put there by guess: its
    # first covered cell, (0, 2), is a 0 whose flood opens every other safe cell, the
    # chord's included. (The count made the bottom row certainly safe: a needless guess.)
    judged = judge_replay(_replay(("left", (0, 1)), ("right", (0, 0)), ("chord", (0, 1)),
                                  board=Board(3, 3, frozenset({(0, 0)}))))
    chord = judged.clicks[2]
    assert chord.opens == ((0, 2), (1, 0), (1, 1), (1, 2))
    assert (chord.judged, chord.probability, chord.mine) == (NEEDLESS, Fraction(4, 5), False)
    assert judged.won and judged.luck == Fraction(1, 5)


def test_clicks_that_do_not_fit_the_board_are_an_error_naming_the_file():
    with pytest.raises(InputError, match="made.evf: a flag at 1.000 s is on an open cell"):
        judge_replay(_replay(("left", (2, 3)), ("right", (2, 2))))
    with pytest.raises(InputError, match="a chord at 1.000 s on the 1 at row 1, col 3 opens "
                                         "nothing"):
        judge_replay(_replay(("left", (2, 3)), ("chord", (1, 3))))
    with pytest.raises(InputError, match="a chord at 1.000 s is on a covered cell"):
        judge_replay(_replay(("left", (2, 3)), ("chord", (0, 0))))
    with pytest.raises(InputError, match="a left click at 1.000 s opens nothing"):
        judge_replay(_replay(("left", (2, 3)), ("left", (2, 2))))
    with pytest.raises(InputError, match="comes after the game ended"):
        judge_replay(_replay(("left", (2, 0)), ("left", (2, 3))))


def test_notes_on_the_mode_and_on_a_disagreement_with_the_file():
    judged = judge_replay(_replay(("left", (2, 3)), mode="weak guessable", completed=True))
    assert any("may move mines" in n for n in judged.notes)
    assert any("reads the game as won; its clicks played again on its board give not won"
               in n for n in judged.notes)


def test_past_the_time_limit_clicks_are_not_judged():
    path = DATA / "public" / "arbiter-expert-wang-jianing.avf"
    judged = judge_replay(read_replay(path), budget=Budget.seconds(1e-9))
    later = judged.opening[1:]
    # Only what the local rules prove safe is still judged: no engine runs.
    assert {c.judged for c in later} == {UNJUDGED, SAFE}
    assert all(c.safe_cells is None for c in later)
    assert all(c.probability is None and "time limit" in c.note for c in later
               if c.judged == UNJUDGED)
    assert judged.count(NEEDLESS) == judged.count(FORCED) == 0 and judged.luck == 1


def test_luck_of_thousands_of_digits_is_still_a_logarithm():
    tiny = Fraction(1, 10**5000)
    click = Click(0, 0.0, "left", (0, 0), BOARD.position(), ((0, 0),), FORCED, 1 - tiny)
    judged = Judgement(_replay(), (click,), False, True, "auto")
    assert judged.luck == tiny
    assert judged.luck_log10 == pytest.approx(5000)
