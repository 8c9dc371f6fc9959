"""The fuzz's inputs (hypothesis strategies), shared by its small form in the suite
(``test_fuzz_readers.py``) and its full form (``scripts/fuzz.py``, through the real command
line and server).

Inputs are random bytes and text, valid files of each format with random edits (a character
changed, inserted or deleted; a line dropped or doubled; the data cut short), so most get
past the first check and reach the deeper ones; numbers of up to 6,000 digits (past the
4,300 digits Python converts); huge grids and big positions; results files with nested JSON,
long numbers and bytes that are not UTF-8; DIMACS formulas; requests to the web API; and
command lines that read them from files, FIFOs, devices and standard input.
"""

from __future__ import annotations

import base64
import json
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from strategies import boards, positions

from exactmines.io.formats import board_to_mbf, board_to_mine, board_to_xo, position_to_mine
from exactmines.io.urls import JSM_PAGE, board_to_jsm_url
from exactmines.position import Board

ROOT = Path(__file__).parent.parent
SEEDS = [(ROOT / "instances" / name).read_text() for name in (
    "reference-9x9.mine", "position-9x9x10-seed1-000.mine", "noguess-9x9x10-seed1-000.mine")]
CNF_SEED = "c a small formula\np cnf 5 4\n1 -2 3 0\n-1 4 0\n2 -5 0\n-3 -4 5 0\n"


@st.composite
def edited(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few random edits."""
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        kind = draw(st.sampled_from(["change", "insert", "delete", "drop", "double", "cut"]))
        at = draw(st.integers(0, max(0, len(text) - 1)))
        char = draw(st.sampled_from(list("0123456789HFM?xo.*# \t\r\nx-=&bpcnf{}[]\":,")))
        if kind == "change" and text:
            text = text[:at] + char + text[at + 1:]
        elif kind == "insert":
            text = text[:at] + char + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + 1:]
        elif kind == "drop" and len(lines) > 1:
            line = draw(st.integers(0, len(lines) - 1))
            text = "\n".join(lines[:line] + lines[line + 1:])
        elif kind == "double":
            line = draw(st.integers(0, len(lines) - 1))
            text = "\n".join(lines[:line + 1] + lines[line:])
        else:
            text = text[:at]
    return text


@st.composite
def long_number(draw: st.DrawFn, text: str) -> str:
    """``text`` with one of its runs of digits (or its start) made 19 to 6,000 digits long:
    past what any board needs, and past the 4,300 digits Python converts."""
    runs = [match.span() for match in re.finditer(r"\d+", text)] or [(0, 0)]
    header = re.search(r"^\d+x\d+(x\d+)?$", text, re.MULTILINE)
    if header is not None and draw(st.booleans()):  # most often where a reader converts
        runs = [span for span in runs if header.start() <= span[0] < header.end()]
    start, end = draw(st.sampled_from(runs))
    # Hypothesis leans to small numbers: the lengths around Python's limit are named.
    digits = draw(st.sampled_from([19, 4300, 4301, 5000]) | st.integers(19, 6000))
    return text[:start] + draw(st.sampled_from("123456789")) + "0" * (digits - 1) + text[end:]


@st.composite
def huge_grid(draw: st.DrawFn) -> str:
    """``.mine`` text of a big board: a header promising up to 10^10 cells over a few rows,
    a whole covered board of up to 400x400 cells, or a position of up to 300x300 cells with
    scattered numbers (hard to count: the time limit has to hold)."""
    kind = draw(st.sampled_from(["header", "covered", "position"]))
    if kind == "header":
        width, height = draw(st.integers(1, 10**5)), draw(st.integers(1, 10**5))
        rows = ["H" * draw(st.integers(0, 50)) for _ in range(draw(st.integers(0, 3)))]
        return "\n".join([f"{width}x{height}x{draw(st.integers(0, 10**6))}", *rows]) + "\n"
    width, height = draw(st.integers(100, 400)), draw(st.integers(1, 400))
    if kind == "covered":
        mines = draw(st.integers(0, width * height))
        return f"{width}x{height}x{mines}\n" + ("H" * width + "\n") * height
    width, height = min(width, 300), min(height, 300)
    # Drawn from a seed: hypothesis would draw tens of thousands of cells one by one.
    rng = random.Random(draw(st.integers(0, 2**32)))
    cells = width * height
    mines = rng.sample(range(cells), draw(st.integers(0, cells // 4)))
    board = Board(width, height, frozenset(divmod(cell, width) for cell in mines))
    share = draw(st.sampled_from([0.05, 0.2, 0.5, 0.9]))
    mine_set = board.mine_cells
    revealed = {(r, c) for r in range(height) for c in range(width)
                if (r, c) not in mine_set and rng.random() < share}
    return position_to_mine(board.position(revealed, set(), count_known=draw(st.booleans())))


#: Digits of other scripts (Arabic-Indic, fullwidth, Devanagari, superscript two), which a
#: header must not read as numbers.
OTHER_DIGITS = "\u0660\u0661\u0665\uff10\uff19\u0967\u00b2"


@st.composite
def refused_file(draw: st.DrawFn) -> tuple[bytes, str, str]:
    """A file every reader must refuse (``(data, name, kind)``): JSON nested too deep or
    with node ids nested too deep, a ``.mine`` header with digits of another script, or a
    malformed ``.mine`` header over rows (which x/o text once read as a board)."""
    kind = draw(st.sampled_from(["deep json", "deep id", "other digits", "format confusion"]))
    if kind == "deep json":
        depth = draw(st.sampled_from([2_000, 100_000]))
        text = draw(st.sampled_from([nested(depth), '{"nodes": ' + nested(depth) + "}"]))
        return text.encode(), draw(st.sampled_from(["g.json", "g"])), kind
    if kind == "deep id":
        label = "[" * 600 + "0" + "]" * 600
        text = ('{"graph": {"mines": 1}, "nodes": [{"id": ' + label + '}, {"id": 1}], '
                '"edges": [{"source": ' + label + ', "target": 1}]}')
        return text.encode(), "g.json", kind
    width, height = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    numbers = [str(width), str(height), str(draw(st.integers(0, width * height)))]
    if kind == "other digits":
        at = draw(st.integers(0, 2))
        digits = list(numbers[at])
        digits[draw(st.integers(0, len(digits) - 1))] = draw(st.sampled_from(OTHER_DIGITS))
        numbers[at] = "".join(digits)
        header = "x".join(numbers)
    else:
        header = draw(st.sampled_from([
            "x".join(numbers) + " knight torus", numbers[0] + "x" + numbers[1] + "x " +
            numbers[2], numbers[0] + " x" + numbers[1], "x".join(numbers) + "x",
            "x".join(numbers) + " box"]))
    rows = "".join(draw(st.sampled_from(["H", "M", "x", "o"])) * width + "\n"
                   for _ in range(height))
    return (header + "\n" + rows).encode(), draw(st.sampled_from(["a.mine", "b.txt", "d"])), kind


@st.composite
def any_file(draw: st.DrawFn) -> tuple[bytes, str]:
    """Bytes and a file name: random data, or an edited valid file of any format, with long
    numbers, huge grids and files that must be refused among them."""
    if draw(st.integers(0, 9)) == 0:
        data, name, _ = draw(refused_file())
        return data, name
    name = draw(st.sampled_from(["a.mine", "b.txt", "c.mbf", "d"]))
    source = draw(st.sampled_from(["random bytes", "random text", "seed", "board",
                                   "position", "long number", "huge grid"]))
    if source == "random bytes":
        return draw(st.binary(max_size=300)), name
    if source == "random text":
        return draw(st.text(max_size=300)).encode(), name
    if source == "seed":
        return draw(edited(draw(st.sampled_from(SEEDS)))).encode(), name
    if source == "long number":
        text = draw(st.sampled_from([*SEEDS, f"{JSM_PAGE}?b=2020&m=" + "0" * 80]))
        return draw(long_number(text)).encode(), name
    if source == "huge grid":
        return draw(huge_grid()).encode(), name
    if source == "position":
        text = position_to_mine(draw(positions(max_side=9, max_covered=30, allow_lies=True)))
        return (draw(edited(text)) if draw(st.booleans()) else text).encode(), name
    board = draw(boards(max_side=8, max_cells=40))
    kind = draw(st.sampled_from(["mine", "xo", "link", "mbf"]))
    if kind == "mbf":
        data = bytearray(board_to_mbf(board))
        for _ in range(draw(st.integers(0, 3))):
            if data:
                data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        return bytes(data[:draw(st.integers(0, len(data)))]), name
    text = {"mine": board_to_mine, "xo": board_to_xo, "link": board_to_jsm_url}[kind](board)
    return (draw(edited(text)) if draw(st.booleans()) else text).encode(), name


@st.composite
def cnf_file(draw: st.DrawFn) -> bytes:
    """A DIMACS CNF: an edited small formula, one with a long number, or random bytes."""
    kind = draw(st.sampled_from(["edited", "long number", "random"]))
    if kind == "random":
        return draw(st.binary(max_size=200))
    text = CNF_SEED if kind == "long number" else draw(edited(CNF_SEED))
    return (draw(long_number(text)) if kind == "long number" else text).encode()


#: JSON values of every kind, big and nested.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-(10**40), 10**40)
    | st.floats(allow_nan=False) | st.text(max_size=30) | st.sampled_from(SEEDS),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=10)


def nested(depth: int) -> str:
    """A JSON array nested ``depth`` deep (past Python's recursion limit from about 1,000)."""
    return "[" * depth + "]" * depth


@st.composite
def results_file(draw: st.DrawFn, meta: dict[str, Any]) -> bytes:
    """A results file (``--out`` of ``batch``, ``survey``, ``play``) to resume from: its
    ``meta`` line (or an edited one), then rows that are valid-looking, nested deep, hold
    5,000-digit numbers or bytes that are not UTF-8, or a torn last line."""
    meta_line = json.dumps({"meta": meta})
    lines = [draw(st.sampled_from([meta_line, draw(edited(meta_line)), "{}", ""]))]
    for row in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["row", "nested", "long number", "json", "bytes"]))
        if kind == "row":
            lines.append(json.dumps({"id": row, "seed": row, "solvable": True}))
        elif kind == "nested":
            lines.append(nested(draw(st.sampled_from([10, 1000, 100_000]))))
        elif kind == "long number":
            lines.append('{"id": 1%s}' % ("0" * draw(st.sampled_from([19, 4301, 5000]))))
        elif kind == "json":
            lines.append(json.dumps({"id": draw(json_values), "seed": draw(json_values)}))
        else:
            lines.append(draw(st.binary(max_size=40)).decode("latin-1"))
    text = "\n".join(lines) + draw(st.sampled_from(["\n", ""]))
    return text.encode("latin-1", "replace") if draw(st.booleans()) else text.encode()


API_KEYS = ["text", "grid", "mines", "backend", "time_limit", "name", "data", "to", "width",
            "height", "rule", "seed", "noguess", "board", "row", "col"]
API_PATHS = ["/api/analyze", "/api/overlay", "/api/import", "/api/export", "/api/games",
             "/api/games/GAME/reveal", "/api/games/GAME/flag", "/api/games/GAME/hint",
             "/api/games/GAME/step"]


@st.composite
def api_request(draw: st.DrawFn, routes: bool = False) -> tuple[str, str, bytes, str]:
    """``(method, path, body, content type)``: a plausible request with fuzzed values, or
    raw bodies no JSON reader should fall over (deep nesting, 5,000-digit numbers, bytes
    that are not UTF-8, huge grids). ``GAME`` in the path stands for a game's id. With
    ``routes``, also other methods, unknown paths and query strings."""
    path = draw(st.sampled_from(API_PATHS))
    kinds = (["fields", "file", "long number", "raw", "refused", "big"]
             + (["route"] if routes else []))
    kind = draw(st.sampled_from(kinds))
    if kind == "refused":
        data, name, _ = draw(refused_file())
        path = draw(st.sampled_from(["/api/import", "/api/analyze", "/api/overlay"]))
        body = ({"name": name, "text": data.decode()} if path == "/api/import" else
                {"text": data.decode()})
        return "POST", path, json.dumps(body).encode(), "application/json"
    if kind == "big":  # all covered, near the 2 MB body cap: refused (413) or answered
        width, height = draw(st.sampled_from([(500, 500), (1000, 250), (1400, 1400),
                                              (1, 100_000), (260, 260), (1000, 1000)]))
        text = f"{width}x{height}x{width * height // 5}\n" + ("H" * width + "\n") * height
        path = draw(st.sampled_from(["/api/analyze", "/api/overlay"]))
        body = {"text": text, "time_limit": draw(st.sampled_from([0.2, 1]))}
        return "POST", path, json.dumps(body).encode(), "application/json"
    if kind == "route":
        method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]))
        path = draw(st.sampled_from([
            path, "/api/health", "/api/nothing", "/", "/static/../../../etc/passwd",
            "/api/games/" + draw(st.text(alphabet="abcdef0123456789-%./", max_size=40)),
            "/api/analyze?time_limit=" + draw(st.sampled_from(["abc", "-1", "0", "1e400",
                                                               "nan", "9" * 5000, "0.5"])),
            "/api/analyze?backend=" + draw(st.sampled_from(["nope", "brute", "milp", ""])),
        ]))
        body = draw(edited(draw(st.sampled_from(SEEDS)))).encode()
        return method, path, body, draw(st.sampled_from(["text/plain", "application/json"]))
    if kind == "long number":
        text = draw(long_number(draw(st.sampled_from(SEEDS))))
        field = draw(st.sampled_from(["text", "board"]))
        return "POST", path, json.dumps({field: text}).encode(), "application/json"
    if kind == "fields":
        keys = draw(st.lists(st.sampled_from(API_KEYS), max_size=4, unique=True))
        body = {key: draw(json_values) for key in keys}
        if "time_limit" in body:
            body["time_limit"] = draw(st.sampled_from([0.5, 1, -1, 0, 1e-300, "1", None]))
        return "POST", path, json.dumps(body).encode(), "application/json"
    if kind == "file":
        data, name = draw(any_file())
        body = draw(st.sampled_from([
            {"text": data.decode("utf-8", "replace")},
            {"name": name, "data": base64.b64encode(data).decode()},
            {"text": data.decode("utf-8", "replace"), "to": draw(st.sampled_from(
                ["mine", "mbf", "xo", "link"]))},
            {"board": data.decode("utf-8", "replace")}]))
        if draw(st.booleans()):
            return "POST", path, data, "text/plain"
        return "POST", path, json.dumps(body).encode(), "application/json"
    depth = draw(st.integers(1, 100_000))
    raw = draw(st.sampled_from([
        nested(depth).encode(),
        b'{"text": ' * min(depth, 5000) + b'"x"' + b"}" * min(depth, 5000),
        ('{"mines": %s, "grid": ["HHH"]}' % ("1" * depth)).encode(),
        ('{"width": %s}' % ("9" * depth)).encode(),
        b"\xff\xfe" + draw(st.binary(max_size=50)),
        json.dumps({"grid": ["H" * 700] * 700, "mines": 70_000, "time_limit": 0.5}).encode(),
    ]))
    return "POST", path, raw, draw(st.sampled_from(["application/json", "text/plain"]))


# -- command lines ------------------------------------------------------------------------

#: How a command gets its input: a file, a FIFO (written at once, slowly, closed at once
#: without data, or never opened by a writer), standard input, a device, a folder, no file.
#: Weighted by repetition; the silent FIFO (``fifo silent``, one in a hundred) costs the
#: reader's whole wait.
SOURCES = (["file"] * 12 + ["fifo", "fifo slow", "fifo empty", "stdin", "stdin"]
           + ["/dev/zero", "/dev/urandom", "/dev/null", "folder", "missing"])

#: The meta lines that ``batch``, ``survey`` and ``play`` write for the runs below.
BATCH_META = {"command": "batch", "backend": "auto", "time_limit": 1.0}
SURVEY_META = {"survey": "solvable", "width": 5, "height": 5, "mines": 5, "start": "safe",
               "at": [0, 0], "seed": 1, "use_count": True}
PLAY_META = {"run": "play", "width": 5, "height": 5, "mines": 3, "start": "safe",
             "at": [0, 0], "seed": 1, "strategy": "best", "without": [],
             "parameters": {"candidate_ratio": "9/10", "progress": "1/10",
                            "risk_weight": "9/10", "endgame_layouts": "2000",
                            "endgame_nodes": "200000"}}


#: The compiled formulas of issue 41: (variables, clauses, seed).
COMPILED = [(25, 110, 11), (40, 170, 11), (60, 255, 17), (80, 340, 17)]


@lru_cache(maxsize=8)
def compiled_text(variables: int, clauses: int, seed: int) -> bytes:
    """A random 3-SAT formula compiled into a position (``generate sat``): 322,000 to 3
    million cells."""
    from exactmines.generate.positions import random_sat_instances

    return random_sat_instances(variables, clauses, seed, count_seconds=0.01)[0].text.encode()


_ASCII_HEADER = re.compile(r"[0-9]+x[0-9]+(?:x-?[0-9]+)?(?:x-?[0-9]+)?(?:[ \t]+\S+)?",
                           re.IGNORECASE | re.ASCII)


def must_refuse(data: bytes, name: str) -> bool:
    """Whether every reader must refuse ``data`` (named ``name``): JSON nested past what is
    read, or text whose first line starts with a digit but is no ``.mine`` header (ASCII
    digits, at most one word after them). Such a file read as a board is a finding."""
    if name.endswith(".mbf"):
        return False
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    if "[" * 600 in text:
        return True
    for raw in text.splitlines():
        line = raw.rstrip(" \t\r")
        if not line or line.startswith("#"):
            continue
        return line.lstrip(" \t")[:1].isdigit() and _ASCII_HEADER.fullmatch(line.strip()) is None
    return False


@st.composite
def cli_case(draw: st.DrawFn) -> dict[str, Any]:
    """A command line of ``exactmines`` reading fuzzed input: ``{"args", "data", "name",
    "source", "out_data"}``. In ``args``, ``{in}`` stands for the input's path (or ``-``),
    ``{dir}`` for a scratch folder; ``source`` is one of :data:`SOURCES` (or ``argument``:
    the data is the argument itself); ``out_data`` is the results file already in
    ``{dir}/out.jsonl`` (``--resume``), or ``None``."""
    if draw(st.integers(0, 39)) == 0:  # a compiled formula, within its time limit
        variables, clauses, seed = draw(st.sampled_from(COMPILED))
        limit = draw(st.sampled_from(["0.2", "1", "3"]))
        engine = draw(st.sampled_from(["auto", "dp", "sat", "milp", "ganak", "brute"]))
        return {"args": ["analyze", "{in}", "--time-limit", limit, "--backend", engine,
                         *draw(st.sampled_from([[], ["--format", "json"]]))],
                "data": compiled_text(variables, clauses, seed),
                "name": f"sat-{variables}-{clauses}.mine", "source": "file",
                "out_data": None}
    command = draw(st.sampled_from(["analyze", "analyze", "analyze", "solvable", "convert",
                                    "convert", "export", "batch", "generate", "survey", "play"]))
    source = "fifo silent" if draw(st.integers(0, 99)) == 0 else draw(st.sampled_from(SOURCES))
    data, name = draw(any_file())
    out_data = None
    limit = draw(st.sampled_from(["1", "0.5", "2"]))
    if command == "analyze":
        args = ["analyze", "{in}", "--time-limit",
                draw(st.sampled_from([limit, limit, limit, "0", "-1"]))]
        args += draw(st.sampled_from([[], ["--format", "json"], ["--format", "jsonl"]]))
        args += draw(st.sampled_from([[], [], ["--backend", "sat"], ["--backend", "dp"],
                                      ["--backend", "milp"], ["--backend", "brute"]]))
        args += draw(st.sampled_from([[], [], ["--unique"], ["--mines", "10"],
                                      ["--mines", "1" + "0" * 30]]))
    elif command == "solvable":
        args = ["solvable", "{in}"]
        args += draw(st.sampled_from([[], ["--at", "0,0"], ["--at", "4,4"], ["--at", "-1,3"],
                                      ["--at", "9" * 5000 + ",0"]]))
        args += draw(st.sampled_from([[], ["--no-count"], ["--stuck", "{dir}/stuck.mine"],
                                      ["--format", "json"]]))
    elif command == "convert":
        if draw(st.integers(0, 5)) == 0:
            source = "argument"
        args = ["convert", "{in}", *draw(st.sampled_from([
            [], ["{dir}/out.mine"], ["{dir}/out.mbf"], ["{dir}/out.txt"], ["{dir}/no/out.mine"],
            ["{dir}"]]))]
        args += draw(st.sampled_from([[], ["--format", "json"]]))
    elif command == "export":
        kind = draw(st.sampled_from(["cnf", "opb", "lp", "mps", "xyz"]))
        args = ["export", "{in}", "--to", kind, "--out", f"{{dir}}/out.{kind}",
                "--time-limit", limit]
    elif command == "batch":
        args = ["batch", "{in}", "--out", "{dir}/out.jsonl", "--workers", "1",
                "--time-limit", str(BATCH_META["time_limit"]), "--quiet"]
        if draw(st.booleans()):
            args.append("--resume")
            out_data = draw(results_file(BATCH_META))
    elif command == "generate":
        data, name = draw(cnf_file()), "formula.cnf"
        args = ["generate", "sat", "--cnf", "{in}", "--out", "{dir}/generated"]
    else:
        meta = SURVEY_META if command == "survey" else PLAY_META
        args = [command, "--width", "5", "--height", "5", "--mines", str(meta["mines"]),
                "--boards" if command == "survey" else "--games", "3", "--start", "safe",
                "--at", "0,0", "--seed", "1", "--out", "{dir}/out.jsonl", "--quiet"]
        resume = draw(st.booleans())
        if resume:
            args.append("--resume")
        out_data = draw(results_file(meta)) if resume or draw(st.booleans()) else None
        source = "none"
    return {"args": args, "data": data, "name": name, "source": source, "out_data": out_data}
