"""Analysis -> text for people. Floats appear only here, for display."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exactmines.words import plural

if TYPE_CHECKING:  # cheap to import: the CLI's every command uses plural()
    from exactmines.analysis.analyze import Analysis
    from exactmines.efficiency.zini import Zini
    from exactmines.play.games import PlayResult
    from exactmines.position import Board, Cell, Topology
    from exactmines.solvability.check import Solvability
    from exactmines.solvability.survey import SurveyResult

__all__ = ["analysis_to_text", "grouped", "percent", "plural", "shape_text",
           "solvable_to_text", "survey_to_text", "play_summary", "play_to_text",
           "batch_summary", "batch_to_text", "chance", "replay_to_text", "replay_summary",
           "replay_summary_to_text", "unique_text", "layouts_text"]

#: Boards with more cells than this are summarised in text, not drawn.
MAX_DRAWN_CELLS = 6000


def percent(p: Fraction) -> str:
    """A probability for people: ``"17.6%"``; never rounds a non-zero to 0 or a non-one to 100."""
    # Compared exactly: 1 - 3^-40 is 1.0 as a float, and was printed 100.0%.
    if 0 < p < Fraction(1, 1000):
        return "<0.1%"
    if Fraction(999, 1000) < p < 1:
        return ">99.9%"
    return f"{float(p) * 100:.1f}%"


def _shown(result: Analysis) -> dict[tuple[int, int], str]:
    """Each cell's three characters (rich markup): numbers, F flags, s safe, * mine, the
    mine probability in % for the rest."""
    from exactmines.topology import char_number, is_number_char

    position = result.position
    out = {}
    for r, row in enumerate(position.rows):
        for c, ch in enumerate(row):
            if ch == "0":
                out[(r, c)] = "  [dim].[/]"
            elif is_number_char(ch):
                out[(r, c)] = f"[bold]{char_number(ch):>3}[/]"
            else:
                out[(r, c)] = f"[bold]{ch:>3}[/]"
    for cell in result.cells:
        if cell.verdict == "safe":
            text = "  [bold green]s[/]"
        elif cell.verdict == "mine":
            text = "  [bold red]*[/]"
        elif cell.probability is None:
            text = "  [dim]?[/]"
        else:
            text = f"[yellow]{min(max(round(float(cell.probability) * 100), 1), 99):>3}[/]"
        out[cell.cell] = text
    return out


def _no_probability(result: Analysis) -> str:
    """What the legend says of ``?`` (a covered cell without a probability), when the grid
    shows one: its probability was not counted in time, or the cell is off the frontier of
    a position whose mine count is unknown (where it has none, docs/contract.md §2)."""
    if not any(c.verdict == "unknown" and c.probability is None for c in result.cells):
        return ""
    why = []
    if result.position.mines is None:
        why.append("off the frontier with no mine count: it has none")
    if not result.probabilities_computed or not why:
        why.insert(0, "not counted within the time limit")
    return f", [dim]?[/] no probability ({'; or '.join(why)})"


def _grid(result: Analysis) -> list[str]:
    """The board, three characters a cell (:func:`_shown`); a hex board's odd rows shifted
    right, a cube's layers one after another, a graph's nodes listed with their labels."""
    position = result.position
    topology = position.topology
    shown = _shown(result)
    if topology.kind == "graph":
        assert topology.labels is not None
        entries = [f"{topology.labels[c]}:{shown[(0, c)].replace(' ', '')}"
                   for c in range(position.width)]
        return [" ".join(entries[i:i + 8]) for i in range(0, len(entries), 8)]
    lines = []
    rows = topology.layer_height
    for start in range(0, position.height, rows):
        if topology.kind == "cube":
            lines.append(f"layer {start // rows}")
        lines.append("     " + "".join(f"{c:>3}" for c in range(position.width)))
        for r in range(start, start + rows):
            shift = "  " if topology.shape.cell == "hex" and r % 2 else ""
            lines.append(f"{r - start:>4} {shift}"
                         + "".join(shown[(r, c)] for c in range(position.width)))
    return lines


def grouped(n: int) -> str:
    """A count for people: ``1,234,567``, or its plain digits when it is too long for Python
    to group (thousands of digits, which no one reads by the group anyway)."""
    from exactmines.analysis.serialize import decimal

    return f"{n:,}" if n.bit_length() < 12_000 else decimal(n)


def unique_text(unique: bool | None) -> str:
    """``Analysis.unique`` in words: ``None`` (the time limit came first) is said, never
    shown as "not unique"."""
    return {True: "unique", False: "not unique", None: "unique: not decided"}[unique]


def layouts_text(result: Analysis, number: Callable[[int], str]) -> str:
    """``"layouts: 1,031"``; ``"not counted"`` past the time limit. Without a mine count
    the layouts are those of the frontier alone (docs/contract.md §2): the words say so,
    and name the cells off it, which any number of mines may fill."""
    if result.layouts is None or result.frontier_cells is None:
        return "layouts: not counted"
    if result.position.mines is not None:
        return f"layouts: {number(result.layouts)}"
    free = len(result.cells) - result.frontier_cells
    off = f" ({plural(free, 'cell')} off it, free: no mine count)" if free else ""
    return f"layouts of the frontier: {number(result.layouts)}{off}"


def analysis_to_text(result: Analysis, file: str | None = None) -> str:
    """A report a person reads at a glance (rich markup; the console strips it if plain)."""
    position = result.position
    topology = position.topology
    mines = "unknown mines" if position.mines is None else plural(position.mines, "mine")
    title = f"{file + ': ' if file else ''}{shape_text(topology)}, {mines}"
    lines = [f"[bold]{title}[/]"]
    if result.consistent is False:
        lines.append("[bold red]inconsistent[/]: no layout of mines fits this position")
        lines += [f"  {note}" for note in result.notes]
        return "\n".join(lines)
    layouts = layouts_text(result, grouped)
    if result.consistent is None:
        lines.append(f"[bold yellow]consistency not decided[/] within the time limit, "
                     f"{layouts}, {unique_text(result.unique)}")
    else:
        lines.append(f"consistent, {layouts}, {unique_text(result.unique)}")
    if not result.verdicts_complete:
        lines.append("[bold yellow]verdicts incomplete[/]: the time limit came first; every "
                     "safe and mine shown is proved, some unknown cells may be either")
    shape = ("frontier not built" if result.components is None
             or result.frontier_cells is None else
             f"{plural(result.components, 'component')}, "
             f"{plural(result.frontier_cells, 'frontier cell')} "
             f"(largest {result.largest_component})")
    lines.append(f"backend {result.backend}: {shape}, {result.seconds * 1000:.1f} ms")
    lines += [f"[yellow]note[/]: {note}" for note in result.notes]
    if position.width * position.height <= MAX_DRAWN_CELLS:
        lines.append("")
        lines += _grid(result)
        lines.append("legend: digits revealed, F flag, [green]s[/] safe, [red]*[/] mine, "
                     "other covered cells: mine probability in %"
                     + _no_probability(result) + topology.shape.legend)
    else:
        lines.append(f"(the board is not drawn: {plural(position.width * position.height, 'cell')}"
                     f", more than {MAX_DRAWN_CELLS:,}; --format json or --image show every "
                     "cell)")
    safe, mine_cells = result.safe, result.mines
    lines.append("")
    lines.append(f"safe: {len(safe)}" + (f"  {_cells(topology, safe)}" if safe else ""))
    lines.append(f"mines: {len(mine_cells)}"
                 + (f"  {_cells(topology, mine_cells)}" if mine_cells else ""))
    # No probability at all (nothing counted in time): no cell objects to make.
    open_cells = [] if not result.cells.any_probability() else [
        c for c in result.cells if c.verdict == "unknown" and c.probability is not None]
    if open_cells and not safe:
        best = min(open_cells, key=lambda c: (c.probability, c.row, c.col))
        assert best.probability is not None
        lines.append(f"safest guess: {_cells(topology, [best.cell])} mine probability "
                     f"{best.probability} = {percent(best.probability)}")
    return "\n".join(lines)


def _cells(topology: Topology, cells: list[tuple[int, int]], limit: int = 12) -> str:
    """Cells as people write them: ``(r,c)``, a cube's ``(l,r,c)``, a graph's labels."""
    shown = " ".join(f"({','.join(map(str, topology.coordinates(cell)))})"
                     for cell in cells[:limit])
    return shown + (f" ... (+{len(cells) - limit})" if len(cells) > limit else "")


# ---------------------------------------------------------------------------------------
# Summaries of long runs (survey, play, batch) and of the no-guess check


def _rate_line(successes: int, trials: int, noun: str, verb: str) -> str:
    from exactmines.stats import wilson_interval

    low, high = wilson_interval(successes, trials)
    return (f"{successes} of {plural(trials, noun)} {verb} = {100 * successes / trials:.2f} % "
            f"(95 % CI {100 * low:.2f}-{100 * high:.2f} %)")


def _at(cell: tuple[int, int] | None, topology: Topology | None = None) -> str:
    if cell is None:
        return ""
    written = cell if topology is None else topology.coordinates(cell)
    return f" at {','.join(map(str, written))}"


def shape_text(topology: Topology) -> str:
    """A board's shape for people: ``30x16``, ``30x16 hex``, ``5x5x5 cube``, ``40 nodes``."""
    word = topology.word if topology.kind != "graph" else ""
    return f"{topology.size_text} {word}" if word else topology.size_text


def solvable_to_text(result: Solvability, file: str, board: Board, cell: Cell,
                     use_count: bool, stuck_file: str | None) -> str:
    """What ``exactmines solvable`` prints: the board, the verdict, and where it stopped."""
    written = ",".join(map(str, board.topology.coordinates(cell)))
    lines = [f"{file}: {shape_text(board.topology)}, {plural(board.mines, 'mine')}, first "
             f"click {written}{'' if use_count else ', without the mine count'}"]
    if result.solvable:
        lines.append(f"solvable: all {plural(result.safe_cells, 'safe cell')} revealed in "
                     f"{plural(result.steps, 'round')} "
                     f"({plural(result.exact_steps, 'exact step')}, "
                     f"{plural(result.count_deductions, 'cell')} proved by the count)")
        return "\n".join(lines)
    lines.append(f"not solvable: stuck after revealing {result.revealed} of "
                 f"{plural(result.safe_cells, 'safe cell')} "
                 f"({plural(result.mines_found, 'mine')} proved)")
    if result.stuck is not None and result.stuck.topology.kind != "graph":
        lines += result.stuck.rows
    if stuck_file is not None:
        lines.append(f"stuck position written to {stuck_file}")
    return "\n".join(lines)


def survey_to_text(result: SurveyResult, out: str | None) -> str:
    """What ``exactmines survey`` prints: the solvable share with its interval, the speed."""
    s = result.settings
    topology = s.board_topology()
    lines = [f"{shape_text(topology)}/{s.mines}, {s.start}{_at(s.at, topology)}, seed {s.seed}"
             f"{'' if s.use_count else ', without the mine count'}"
             f"{', no-guess boards' if s.deal == 'noguess' else ''}: "
             + _rate_line(result.solvable, result.boards, "board", "solvable")]
    if result.without_zero:
        lines.append(f"{plural(result.without_zero, 'board')} had no zero cell (counted as "
                     "not solvable)")
    if result.checked:
        earlier = result.boards - result.checked
        lines.append(f"{result.seconds:.1f} s, {1000 * result.seconds / result.checked:.3f} ms "
                     "per board" + (f" (the {result.checked} checked now; {earlier} read from "
                                    f"{out})" if earlier else ""))
    return "\n".join(lines)


def play_summary(result: PlayResult, out: str | None) -> dict[str, Any]:
    """``exactmines play --format json``: the result, the published rate for these rules,
    and the results file."""
    from exactmines.play.games import published_rate

    summary = result.to_dict()
    published = published_rate(result.settings)
    summary["published"] = (None if published is None else
                            {"win_rate": published[0], "source": published[1]})
    if out is not None:
        summary["out"] = out
    return summary


def play_to_text(summary: dict[str, Any]) -> str:
    """What ``exactmines play`` prints, from :func:`play_summary`."""
    s = summary
    shape = f"{s['width']}x{s['height']}"
    if "topology" in s:
        shape = (f"{plural(s['cells'], 'node')}" if s["topology"] == "graph" else
                 f"{s['width']}x{s['height']}x{s['layers']} cube" if s["topology"] == "cube"
                 else f"{shape} {s['topology']}")
    lines = [f"{shape}/{s['mines']}, {s['start']} at {','.join(map(str, s['at']))}, "
             f"seed {s['seed']}, strategy {s['strategy']}: "
             + _rate_line(s["wins"], s["games"], "game", "won")]
    if s["published"] is not None:
        lines.append(f"published: {100 * s['published']['win_rate']:.2f} % "
                     f"({s['published']['source']})")
    lines.append(f"{s['guesses_per_game']:.2f} guesses per game, "
                 f"{s['cpu_ms_per_game']:.1f} CPU ms per game, {s['seconds']:.1f} s")
    risk = s["risk_per_game"]
    if risk:
        lines.append("risk taken per game (sum of the mine probabilities clicked): "
                     + ", ".join(f"{kind.replace('_', '-')} {value:.4f}"
                                 for kind, value in risk.items() if value)
                     + f"; in all {sum(risk.values()):.4f} (expected losses)")
    return "\n".join(lines)


def batch_summary(rows: list[dict[str, Any]], out: str) -> dict[str, Any]:
    """``exactmines batch --format json``: counts over the rows of a run."""
    answered = [r for r in rows if "error" not in r]
    return {
        "files": len(rows), "out": out, "errors": len(rows) - len(answered),
        "consistent": sum(r["consistent"] is True for r in answered),
        "inconsistent": sum(r["consistent"] is False for r in answered),
        "undecided": sum(r["consistent"] is None for r in answered),
        "verdicts_incomplete": sum(not r.get("verdicts_complete", True) for r in answered),
        "unique": sum(r["unique"] is True for r in answered),
        "not_counted": sum(not r["probabilities_computed"] for r in answered),
        "seconds": round(sum(r["seconds"] for r in answered), 6),
    }


def batch_to_text(summary: dict[str, Any]) -> str:
    """What ``exactmines batch`` prints, from :func:`batch_summary`."""
    s = summary
    lines = [f"{plural(s['files'], 'position')} -> {s['out']}: {s['consistent']} consistent "
             f"({s['unique']} unique), {s['inconsistent']} inconsistent, {s['errors']} "
             f"unreadable; {s['seconds']:.2f} s of analysis"]
    if s["not_counted"]:
        lines.append(f"{plural(s['not_counted'], 'position')} went past --time-limit: "
                     "probabilities not computed")
    if s["verdicts_incomplete"]:
        lines.append(f"{plural(s['verdicts_incomplete'], 'position')} went past it again "
                     f"while proving verdicts ({s['undecided']} with consistency undecided): "
                     "their unproved cells are unknown")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# Replays


#: A fraction whose numerator or denominator has more digits than this is shown short (the
#: page's ``SHORT_FROM``, in ``numbers.js``).
SHORT_FROM = 15

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def short_fraction(p: Fraction) -> str:
    """A fraction for people as the page shows it (``shortFraction`` of ``numbers.js``):
    its exact text when both parts have at most :data:`SHORT_FROM` digits (``"3/17"``),
    else four significant digits, truncated: ``"≈ 0.9888"``, ``"≈ 0.001234"``, or a power
    of ten far from 1 (``"≈ 3.141 × 10⁻⁹"``)."""
    num, den = p.numerator, p.denominator
    if len(str(abs(num))) <= SHORT_FROM and len(str(den)) <= SHORT_FROM:
        return str(p)
    if num == 0:
        return "0"
    sign, num = ("-", -num) if num < 0 else ("", num)
    e = len(str(num)) - len(str(den))  # 10^e <= num/den < 10^(e+1), or e one too many
    if num * 10 ** max(0, -e) < den * 10 ** max(0, e):
        e -= 1
    k = 3 - e
    digits = str(num * 10 ** k // den if k >= 0 else num // 10 ** -k // den)
    if 0 <= e < 6:
        whole = digits[:e + 1].ljust(e + 1, "0")
        return f"≈ {sign}{whole}" + (f".{digits[e + 1:]}" if e < 3 else "")
    if -4 <= e < 0:
        return f"≈ {sign}0.{'0' * (-e - 1)}{digits}"
    return f"≈ {sign}{digits[0]}.{digits[1:]} × 10{str(e).translate(_SUPERSCRIPT)}"


def chance(text: str | None) -> str:
    """A probability from the JSON (a fraction string) for people: ``"1/3 = 33.3%"``, a
    long fraction shortened as the page shows it (:func:`short_fraction`: ``"≈ 0.9888 =
    98.9%"``), ``0`` and ``1`` as they are, ``"?"`` when not known."""
    if text is None:
        return "?"
    if "/" not in text:
        return text
    p = Fraction(text)
    return f"{short_fraction(p)} = {percent(p)}"


def _efficiency_line(e: dict[str, Any]) -> str:
    """A won game's clicks against the exact ZiNi, and its wasted clicks."""
    if e["zini_optimal"]:
        zini = f"exact ZiNi {e['zini']}"
        ratio = f"efficiency {_percent(e['efficiency'])}"
    else:
        zini = f"ZiNi between {e['zini_lower_bound']} and {e['zini']} (time limit reached)"
        low, high = e["efficiency_bounds"]
        ratio = f"efficiency {_percent(low)} to {_percent(high)}"
    wasted = (f"; wasted: {plural(e['changed_nothing'], 'click')} that changed nothing, "
              f"{plural(e['flags_unused'], 'flag click')} no chord used")
    return f"{plural(e['clicks'], 'click')} against {zini}: {ratio}{wasted}"


def _percent(fraction: str | None) -> str:
    if fraction is None:
        return "-"
    value = Fraction(fraction)
    return f"{float(value) * 100:.1f} % ({fraction})"


def replay_classes(classes: Mapping[str, int]) -> str:
    """A replay's clicks that opened cells by class, as its text and picture say them:
    ``"1 first, 3 safe, 1 needless guess"`` (the classes of none left out)."""
    counted = ", ".join(plural(n, name, name.replace("guess", "guesses")) if "guess" in name
                        else f"{n} {name}" for name, n in classes.items() if n)
    return counted or "none judged"


def replay_luck(luck: str, luck_log10: float, survived: int) -> str:
    """A replay's luck as its text and picture (and the page) say it: the chance of surviving
    the ``survived`` guesses it survived, or ``"luck: 1 (no guess survived)"``."""
    if not survived:
        return "luck: 1 (no guess survived)"
    return (f"luck: {chance(luck)} (-log10 {luck_log10:.3f}), the chance of surviving the "
            f"{plural(survived, 'guess', 'guesses')} it survived")


def replay_to_text(game: dict[str, Any]) -> str:
    """What ``exactmines replay`` prints for one game, from its JSON object
    (:func:`~exactmines.replay.serialize.judgement_to_dict`): who and what, the figures
    ms_toollib computes, the clicks by class, the luck, and one line per guess."""
    g = game
    figures = g["ms_toollib"]
    who = f", player {g['player']}" if g["player"] else ""
    lines = [f"[bold]{g.get('file', 'replay')}[/]: {g['software'] or 'unknown program'} "
             f"(.{g['format']}){who}"]
    outcome = "won" if g["won"] else "lost"
    if g["lost_at"] is not None:
        outcome += f" at {g['lost_at']['time']:.2f} s"
    # A lost game's 3BV/s is the whole board's 3BV over the time to the loss: no speed.
    rate = ("" if figures["bbbv_s"] is None or not g["won"]
            else f", 3BV/s {figures['bbbv_s']:.3f}")
    lines.append(f"{g['width']}x{g['height']}, {plural(g['mines'], 'mine')}, {g['mode']} mode: "
                 f"{outcome}; {figures['time']:.3f} s, 3BV {figures['bbbv']}{rate} "
                 "(time and 3BV from ms_toollib)")
    flags = f", {plural(g['flags'], 'flag')} put or taken off" if g["flags"] else ""
    trusted = " (flags trusted as mines)" if g["trust_flags"] else ""
    lines.append(f"{plural(g['clicks'], 'click')} opened cells{flags}: "
                 f"{replay_classes(g['classes'])}{trusted}")
    apart = [f"{plural(n, 'forced guess', 'forced guesses')} in a 50/50 no click could "
             "resolve, taken early" for n in [g.get("forced_early", 0)] if n]
    apart += [f"{plural(n, 'needless guess', 'needless guesses')} whose safe cells were all "
              "under the player's flags" for n in [g.get("needless_under_flag", 0)] if n]
    if apart:
        lines.append("of which " + "; ".join(apart))
    if g.get("efficiency") is not None:
        lines.append(_efficiency_line(g["efficiency"]))
    survived = sum(1 for e in g["events"] if e["class"] in _GUESSES and not e["mine"]
                   and e["probability"] is not None)
    lines.append(replay_luck(g["luck"], g["luck_log10"], survived))
    if g["largest_excess"] is not None:
        top = g["largest_excess"]
        lines.append(f"largest excess risk: {chance(top['excess'])} at {top['time']:.2f} s")
    lines += [f"[yellow]note[/]: {note}" for note in g["notes"]]
    guesses = [e for e in g["events"] if e["class"] in (*_GUESSES, "not judged")
               or e["mine"] or e["note"]]
    if guesses:
        lines.append("")
        lines += _guess_table(guesses)
    return "\n".join(lines)


_GUESSES = ("needless guess", "forced guess")


def _guess_table(events: list[dict[str, Any]]) -> list[str]:
    """The lines of the replay text's table of guesses (and clicks not judged, mines hit and
    notes): each column as wide as its longest entry, the chances whole (shortened as the
    page shows them), a chord's opened cells beside its class."""
    rows = [("time", "click", "cell", "mine chance", "safest", "excess", "class")]
    for e in events:
        # A chord says what it opened, as the page's log does.
        opens = " ".join(f"{r},{c}" for r, c in e["opens"])
        mark = (f", opens {opens}" if e["kind"] == "chord" else "") + \
            ("  [bold red]mine[/]" if e["mine"] else "") + \
            (f" ({e['note']})" if e["note"] else "")
        rows.append((f"{e['time']:.2f}", e["kind"], f"{e['cell'][0]},{e['cell'][1]}",
                     chance(e["probability"]), chance(e["safest"]),
                     "" if e["excess"] is None else chance(e["excess"]), e["class"] + mark))
    widths = [max(len(row[k]) for row in rows) for k in range(6)]
    widths[0] = max(widths[0], 8)
    return [f"{row[0]:>{widths[0]}}  " + "".join(f"{text:<{width}}  " for text, width
                                                 in zip(row[1:6], widths[1:], strict=True))
            + row[6] for row in rows]


def replay_summary(rows: list[dict[str, Any]], out: str | None) -> dict[str, Any]:
    """``exactmines replay --out FILE --format json``: counts over the games of a run."""
    games = [r for r in rows if "error" not in r]
    classes: dict[str, int] = {}
    for game in games:
        for name, n in game["classes"].items():
            classes[name] = classes.get(name, 0) + n
    return {"files": len(rows), "out": out, "errors": len(rows) - len(games),
            "games": len(games), "won": sum(g["won"] for g in games),
            "clicks": sum(g["clicks"] for g in games), "classes": classes,
            "seconds": round(sum(g["seconds"] for g in games), 6)}


def replay_summary_to_text(summary: dict[str, Any]) -> str:
    """What ``exactmines replay --out FILE`` prints, from :func:`replay_summary`."""
    s = summary
    classes = s["classes"]
    return (f"{plural(s['files'], 'replay')} -> {s['out']}: {s['games']} judged "
            f"({s['won']} won), {s['errors']} unreadable; {plural(s['clicks'], 'click')}: "
            f"{classes.get('safe', 0)} safe, "
            f"{plural(classes.get('needless guess', 0), 'needless guess', 'needless guesses')}, "
            f"{classes.get('forced guess', 0)} forced, "
            f"{classes.get('not judged', 0)} not judged; {s['seconds']:.2f} s of judging")


def zini_to_text(answer: Zini, source: str) -> str:
    """``exactmines zini``'s report: the count, its proof or bounds, and the sequence."""
    if answer.optimal:
        head = f"{source}: {plural(answer.clicks, 'click')}, optimal (exact ZiNi)"
    else:
        head = (f"{source}: {plural(answer.clicks, 'click')} found, at least {answer.lower_bound} "
                f"needed (time limit reached)")
    start = "" if answer.start is None else f"; first click {answer.start[0]},{answer.start[1]}"
    lines = [head, f"3BV {answer.bbbv}; best heuristic {answer.greedy} ({answer.heuristic})"
                   f"{start}; solver {answer.solver}"]
    for n, (kind, (r, c)) in enumerate(answer.sequence, 1):
        lines.append(f"{n:4d}. {kind:5s} {r},{c}")
    return "\n".join(lines)
