"""The web API through the ASGI test client: the analyze contract, every error path, play,
import/export, and the server's limits (body size, time, pool, host and origin). The real
``exactmines serve`` under hard requests and signals is tested in test_web_server.py."""

from __future__ import annotations

import asyncio
import base64
import builtins
import io
import json
import time
from fractions import Fraction
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from exactmines.analysis.analyze import analyze
from exactmines.analysis.backends import backend_names, installed_backend_names
from exactmines.analysis.frontier import BUILDING
from exactmines.budget import LIMIT_RULE, Budget
from exactmines.errors import (
    BackendUnavailable,
    OutOfTime,
    SolverError,
    UnknownBackend,
    WorkerLost,
)
from exactmines.io.formats import position_from_text
from exactmines.io.replays import ms_toollib_version
from exactmines.play.strategy import GUESS_KINDS
from exactmines.ui.cli import main
from exactmines.ui.web import bodies
from exactmines.ui.web.app import Settings, create_app
from exactmines.ui.web.workers import PoolLimits

INSTANCES = Path(__file__).parent.parent / "instances"
REFERENCE = (INSTANCES / "reference-9x9.mine").read_text()
HARD = (INSTANCES / "sat-3sat-v5-c21-seed1-000.mine").read_text()


#: What a browser on this machine, or a script, sends as its Host.
LOCAL = "http://localhost"


def local_client(app) -> TestClient:
    return TestClient(app, base_url=LOCAL, raise_server_exceptions=False)


@pytest.fixture(scope="module")
def client():
    with local_client(create_app()) as c:
        yield c


@pytest.fixture(scope="module")
def hard_text() -> str:
    """A compiled 3-SAT formula (20 variables, 40 clauses: 15,280 covered cells) that no
    engine counts within a few seconds."""
    from exactmines.generate.positions import random_sat_instances

    return random_sat_instances(20, 40, 3, 1)[0].text


def cli_json(capsys, path: Path, *options: str) -> dict:
    assert main(["analyze", str(path), "--format", "json", *options]) in (0, 3)
    return json.loads(capsys.readouterr().out)


def without_timing(document: dict) -> dict:
    return {k: v for k, v in document.items() if k not in ("seconds", "file")}


# -- the analyze contract ---------------------------------------------------------------


def test_health(client):
    answer = client.get("/api/health")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "ok" and body["backends"] == installed_backend_names()
    assert body["time_limit"] == 5.0 and body["max_time_limit"] == 30.0
    workers = body["workers"]
    assert workers["max"] == 8 and 1 <= workers["workers"] <= 8 and workers["busy"] == 0


@pytest.mark.parametrize("name", ["reference-9x9", "position-30x16x99-seed1-000",
                                  "position-16x16x40-seed1-001"])
def test_analyze_is_exactly_the_cli_json(client, capsys, name):
    path = INSTANCES / f"{name}.mine"
    expected = cli_json(capsys, path)
    answer = client.post("/api/analyze", json={"text": path.read_text()})
    assert answer.status_code == 200
    # The CLI's object (no "file"), and the topology as one object.
    reply = answer.json()
    assert reply.pop("geometry") == {"kind": "square", "word": "square", "cell": "square",
                                     "wraps": [False, False], "width": expected["width"],
                                     "height": expected["height"], "layers": None,
                                     "nodes": None}
    assert without_timing(reply) == without_timing(expected)
    assert set(reply) == set(expected) - {"file"}


def test_analyze_takes_plain_text_and_a_grid(client):
    by_json = client.post("/api/analyze", json={"text": REFERENCE, "backend": "sat"}).json()
    by_text = client.post("/api/analyze?backend=sat&time_limit=3", content=REFERENCE,
                          headers={"content-type": "text/plain"}).json()
    rows = [line for line in REFERENCE.splitlines() if line and not line.startswith("#")]
    by_grid = client.post("/api/analyze", json={"grid": rows[1:], "mines": 10,
                                                "backend": "sat"}).json()
    assert by_json["backend"] == by_text["backend"] == by_grid["backend"] == "sat"
    assert without_timing(by_json) == without_timing(by_text) == without_timing(by_grid)
    assert by_json["layouts"] == "1031"


def test_bad_text_gets_the_cli_message_with_line_and_column(client, capsys, tmp_path):
    bad = "9x3x2\nHHHHHHHHH\nHHH2X2HHH\nHHHHHHHHH\n"
    path = tmp_path / "bad.mine"
    path.write_text(bad)
    assert main(["analyze", str(path)]) == 2
    cli_line = capsys.readouterr().err.strip()
    answer = client.post("/api/analyze", json={"text": bad})
    assert answer.status_code == 400
    message = answer.json()["error"]
    assert message == "input:3:5: unknown character 'X' (expected 0-8, H, F, M or ?)"
    assert cli_line == f"exactmines: error: {path}{message.removeprefix('input')}"
    assert "\n" not in message


@pytest.mark.parametrize("body, expected", [
    ({"grid": ["HHH", "1X1"], "mines": 1},
     "grid:2:2: unknown character 'X' (expected 0-8, H, F, M or ?)"),
    ({"grid": ["HHH", "1H"]}, "grid:2:3: row 2 has 2 cells, expected 3"),
    ({"grid": ["HHH", "H9H"]}, "grid:2:2: 9 is not a Minesweeper number"),
    ({"grid": ["HH", "HH"], "mines": 5}, "mines: 5 mines but only 4 unrevealed cells"),
    ({"grid": []}, "grid: the grid has no rows"),
    ({"text": "3x1\nHHH\n", "grid": ["HHH"]},
     "input: give either \"text\" (.mine text) or \"grid\" (a list of rows)"),
    ({"text": "3x1\nHHH\n", "mines": 1},
     "input: \"mines\" goes with \"grid\"; .mine text has its count in the header"),
    ({"text": REFERENCE, "backend": "nope"},
     f"unknown backend 'nope': choose one of {', '.join(backend_names())}"),
    # The library's rule (Budget.seconds), as on the command line.
    ({"text": REFERENCE, "time_limit": 0}, f"time_limit 0.0: {LIMIT_RULE}"),
    ({"text": REFERENCE, "time_limit": -1}, f"time_limit -1.0: {LIMIT_RULE}"),
    ({"text": REFERENCE, "time_limit": 31}, "time_limit 31.0: at most 30 s on this server"),
    ({"text": REFERENCE, "colour": "red"}, "colour: Extra inputs are not permitted"),
    ({"text": 5}, "text: Input should be a valid string"),
])
def test_bad_requests_are_400_with_one_line(client, body, expected):
    for path in ("/api/analyze", "/api/overlay"):
        answer = client.post(path, json=body)
        assert answer.status_code == 400, answer.text
        assert answer.json() == {"error": expected}


@pytest.mark.parametrize("path", ["/api/analyze", "/api/overlay", "/api/import",
                                  "/api/export", "/api/games", "/api/games/x/reveal"])
def test_malformed_json_is_400_with_one_line(client, path):
    answer = client.post(path, content=b'{"text": ',
                         headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert set(answer.json()) == {"error"}
    assert answer.json()["error"].startswith("body: not valid JSON (")


def test_bad_query_and_bytes_that_are_not_text_are_400(client):
    answer = client.post("/api/analyze?time_limit=soon", content=REFERENCE)
    assert answer.status_code == 400
    assert answer.json() == {"error": "time_limit 'soon': not a number"}
    answer = client.post("/api/analyze", content=b"3x1\nH\xffH\n")
    assert answer.status_code == 400
    assert answer.json() == {"error": "input:2:2: not UTF-8 text (byte 0xff)"}


@pytest.mark.parametrize("method, path, status, message", [
    ("GET", "/nope", 404, "no such page: GET /nope"),
    ("GET", "/static/nope.js", 404, "no such page: GET /static/nope.js"),
    ("POST", "/api/healthz", 404, "no such page: POST /api/healthz"),
    ("GET", "/api/analyze", 405, "method GET not allowed on /api/analyze (use POST)"),
    ("DELETE", "/api/health", 405, "method DELETE not allowed on /api/health (use GET)"),
])
def test_unrouted_paths_and_methods_answer_an_error_line(client, method, path, status,
                                                         message):
    answer = client.request(method, path)
    assert answer.status_code == status
    assert answer.json() == {"error": message}


@pytest.mark.parametrize("headers, message", [
    ({"host": "evil.example"},
     "host 'evil.example' refused: this server answers 127.0.0.1, ::1, localhost only"),
    ({"host": "evil.example:8000"},
     "host 'evil.example:8000' refused: this server answers 127.0.0.1, ::1, localhost only"),
    ({"origin": "http://evil.example"},
     "origin 'http://evil.example' refused: only this server's own page may send requests "
     "from a browser"),
    ({"origin": "http://localhost:3000"},
     "origin 'http://localhost:3000' refused: only this server's own page may send requests "
     "from a browser"),
    ({"origin": "null"},
     "origin 'null' refused: only this server's own page may send requests from a browser"),
])
def test_other_sites_and_hosts_are_refused(client, headers, message):
    # DNS rebinding sends another site's name as Host; a page of another site posting
    # here (even as text/plain, which needs no CORS preflight) sends its Origin.
    for answer in (client.post("/api/analyze", content=REFERENCE, headers=headers),
                   client.get("/api/health", headers=headers)):
        assert answer.status_code == 403
        assert answer.json() == {"error": message}


@pytest.mark.parametrize("host, origin", [
    ("localhost", None), ("127.0.0.1:8000", None), ("[::1]:8000", None),
    ("LOCALHOST:8000", None), ("127.0.0.1:8000", "http://127.0.0.1:8000"),
    ("[::1]:8000", "http://[::1]:8000"),
])
def test_this_machines_page_and_scripts_are_served(client, host, origin):
    headers = {"host": host, **({"origin": origin} if origin else {})}
    answer = client.post("/api/analyze", content=REFERENCE, headers=headers)
    assert answer.status_code == 200 and answer.json()["layouts"] == "1031"


def test_a_server_for_every_network_takes_any_host_but_not_another_origin():
    with local_client(create_app(Settings(hosts=None))) as c:
        assert c.get("/api/health", headers={"host": "box.lan:8000"}).status_code == 200
        refused = c.get("/api/health", headers={"host": "box.lan:8000",
                                               "origin": "http://evil.example"})
        assert refused.status_code == 403


def test_oversize_body_is_413_before_it_is_read():
    with local_client(create_app(Settings(max_body=1000))) as c:
        answer = c.post("/api/analyze", content=REFERENCE * 20,
                        headers={"content-type": "text/plain"})
        assert answer.status_code == 413
        assert answer.json() == {"error": "request body larger than 1000 bytes"}

        def chunks():  # no Content-Length: counted as it arrives
            for _ in range(20):
                yield REFERENCE.encode()

        answer = c.post("/api/analyze", content=chunks(), headers={"content-type": "text/plain"})
        assert answer.status_code == 413
        ok = c.post("/api/analyze", content=REFERENCE, headers={"content-type": "text/plain"})
        assert ok.status_code == 200


def test_time_limit_gives_not_computed_never_a_number(client):
    answer = client.post("/api/overlay", json={"text": HARD, "time_limit": 0.0005})
    assert answer.status_code == 200
    analysis = answer.json()["analysis"]
    assert analysis["probabilities_computed"] is False and analysis["layouts"] is None
    assert any("not computed" in note for note in analysis["notes"])
    frontier = [c for c in analysis["cells"] if c["verdict"] == "unknown"]
    assert frontier and all(c["probability"] is None for c in frontier)
    assert answer.json()["recommendation"] is None
    assert "time limit" in answer.json()["note"]


def test_past_its_limit_an_analysis_is_200_with_nothing_made_up(client, hard_text):
    # Counting this formula takes minutes: within 1 s no engine has an answer, and what
    # comes back says so (whether the analysis stopped itself or its worker was ended).
    started = time.monotonic()
    answer = client.post("/api/analyze", json={"text": hard_text, "time_limit": 1})
    assert time.monotonic() - started < 1 + 10  # the limit, the stop, a loaded machine
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["probabilities_computed"] is False and body["layouts"] is None
    assert body["consistent"] is not False  # it is consistent: never claimed otherwise
    assert all(c["probability"] is None for c in body["cells"] if c["verdict"] == "unknown")
    expected = position_from_text(hard_text).with_mines(None)
    assert len(body["cells"]) == sum(row.count("H") for row in expected.rows)
    assert body["notes"]
    assert client.get("/api/health").json()["workers"]["busy"] == 0


def test_the_overlay_past_its_limit_is_200_soon_after_it():
    # The trial: time limit 0.5 on this formula answered 504 after 18 s.
    from exactmines.generate.positions import random_sat_instances

    text = random_sat_instances(5, 21, 2, 1)[0].text
    with local_client(create_app()) as c:
        started = time.monotonic()
        answer = c.post("/api/overlay", json={"text": text, "time_limit": 0.5})
        seconds = time.monotonic() - started
    assert answer.status_code == 200, answer.text
    assert seconds < 0.5 + 10  # the limit, the stop, a loaded machine
    body = answer.json()
    assert body["analysis"]["consistent"] is not False and body["fault"] is None
    if body["analysis"]["probabilities_computed"]:
        # A fast machine, or an engine's child process kept warm by an earlier test, may
        # finish within the limit: then what it says must be the whole truth.
        whole = analyze(position_from_text(text))
        assert body["analysis"]["layouts"] == str(whole.layouts)
        assert {(c["row"], c["col"]): Fraction(c["probability"])
                for c in body["analysis"]["cells"]} == {
            cell.cell: cell.probability for cell in whole.cells}
    else:
        assert body["recommendation"] is None
        assert body["note"].startswith("no recommendation")


def test_a_stopped_analysis_answers_that_nothing_was_computed(hard_text):
    # What a request gets when its worker had to be ended: sound, and it says why.
    data = bodies.Request(hard_text, None, None, "auto", 1.0)
    body = json.loads(bodies.unanswered_body(data, False, 1.65))
    position = position_from_text(hard_text)
    assert body["consistent"] is None and body["layouts"] is None and body["unique"] is None
    assert body["probabilities_computed"] is False and body["verdicts_complete"] is False
    assert body["safe"] == body["mine"] == 0
    assert [(c["row"], c["col"]) for c in body["cells"]] == [
        (r, c) for r, row in enumerate(position.rows) for c, ch in enumerate(row) if ch == "H"]
    assert {(c["probability"], c["verdict"]) for c in body["cells"]} == {(None, "unknown")}
    assert body["notes"] == ["not computed: the work was stopped after 1.65 s (it did not "
                             "end at its time limit); consistency, layouts and every verdict "
                             "are unknown"]
    # No frontier was built for it (reading the position is all it costs): no shape.
    assert body["components"] is None and body["frontier_cells"] is None
    overlay = json.loads(bodies.unanswered_body(data, True, 1.65))
    assert overlay["analysis"] == body and overlay["recommendation"] is None
    assert overlay["fault"] is None and "nothing was computed" in overlay["note"]
    assert overlay["candidates"] == overlay["dead"] == overlay["fifty_fifties"] == []
    # The page asks for the cells grouped: every covered cell, unknown, in one group.
    grouped = json.loads(bodies.unanswered_body(data._replace(grouped=True), True, 1.65))
    assert grouped["analysis"]["cell_groups"] == [{"probability": None, "verdict": "unknown",
                                                  "cells": [r * position.width + c for r, c in
                                                            [(c["row"], c["col"])
                                                             for c in body["cells"]]]}]


def test_every_worker_busy_and_no_queue_is_503_at_once(hard_text):
    app = create_app(Settings(pool=PoolLimits(workers=1, warm=1, queue=0)))

    async def scenario():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=LOCAL, timeout=60) as c:
            try:
                hard = asyncio.ensure_future(
                    c.post("/api/analyze", json={"text": hard_text, "time_limit": 2}))
                deadline = time.monotonic() + 60  # the hard request takes the only worker
                while not (await c.get("/api/health")).json()["workers"]["busy"]:
                    assert time.monotonic() < deadline, "the hard request never started"
                    await asyncio.sleep(0.02)
                busy = await c.post("/api/analyze", json={"text": REFERENCE})  # ... none left
                waited = not hard.done()  # refused at once: while the hard one still runs
                health = await c.get("/api/health")
                late = await hard
                after = await c.post("/api/analyze", json={"text": REFERENCE})
                return busy, waited, health, late, after
            finally:
                await app.state.pool.close()

    busy, waited, health, late, after = asyncio.run(scenario())
    assert busy.status_code == 503 and waited
    assert busy.json()["error"].startswith("busy: every worker is taken")
    assert 1 <= int(busy.headers["retry-after"]) <= 3  # when the hard one must be over
    assert health.status_code == 200 and health.json()["workers"]["busy"] == 1
    assert late.status_code == 200 and late.json()["probabilities_computed"] is False
    assert after.status_code == 200 and after.json()["layouts"] == "1031"


def test_concurrent_clients_within_the_pool_get_no_error():
    app = create_app(Settings(pool=PoolLimits(workers=2, queue=2)))  # 4 slots, 4 clients

    async def client_loop(c: httpx.AsyncClient) -> list[int]:
        return [(await c.post("/api/analyze", json={"text": REFERENCE})).status_code
                for _ in range(40)]

    async def scenario():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=LOCAL) as c:
            try:
                codes = await asyncio.gather(*(client_loop(c) for _ in range(4)))
                # Every slot given back: polled, with a deadline a loaded machine never meets.
                deadline = time.monotonic() + 60
                while (busy := (await c.get("/api/health")).json()["busy"]) \
                        and time.monotonic() < deadline:
                    await asyncio.sleep(0.02)
                return codes, busy
            finally:
                await app.state.pool.close()

    codes, busy = asyncio.run(scenario())
    assert {code for run in codes for code in run} == {200}
    assert busy == 0  # every slot given back


def test_the_page_is_offered_only_the_engines_installed(client):
    health = client.get("/api/health").json()
    assert health["backends"] == installed_backend_names()


@pytest.mark.parametrize("error, status", [
    (BackendUnavailable("backend 'ganak' needs the package 'pyganak': pip install pyganak"),
     501),
    (SolverError("CBC stopped without a proven answer: status Not Solved"), 500),
    (OutOfTime("the new game not finished within 5 s: stopped"), 500),
    (WorkerLost("a worker process died (killed, or out of memory)"), 500),
    (UnknownBackend("unknown backend 'x'"), 400),
])
def test_each_error_answers_the_status_of_its_class(error, status):
    # The handlers answer from the table in errors.py (docs/contract.md §4).
    app = create_app()

    @app.get("/api/fails")
    async def fails() -> None:
        raise error

    with local_client(app) as c:
        answer = c.get("/api/fails")
    assert answer.status_code == status and answer.json() == {"error": str(error)}


@given(text=st.text(max_size=300))
def test_no_text_gets_a_500(client, text):
    for answer in (client.post("/api/analyze", json={"text": text, "time_limit": 2}),
                   client.post("/api/import", json={"text": text}),
                   client.post("/api/analyze", content=text.encode(),
                               headers={"content-type": "text/plain"})):
        assert answer.status_code in (200, 400), answer.text
        if answer.status_code == 400:
            assert "\n" not in answer.json()["error"]


@given(data=st.binary(max_size=200), name=st.sampled_from(["a.mbf", "b.mine", "c.txt", ""]))
def test_no_upload_gets_a_500(client, data, name):
    answer = client.post("/api/import", json={"name": name,
                                              "data": base64.b64encode(data).decode()})
    assert answer.status_code in (200, 400), answer.text


# -- the overlay's extras -----------------------------------------------------------------


def test_a_recommendation_past_its_time_limit_is_none_and_says_so(monkeypatch):
    # The player's counting of a big component stops at the request's time limit: no
    # recommendation, and the note says why (local rules off and the analysis' safe cells
    # dropped, so that the move needs the exact count of the whole front).
    import random
    import types

    import exactmines.play.strategy as strategy_module
    from exactmines.game import Game, random_board
    from exactmines.play.advice import advise

    board = random_board(30, 16, 99, random.Random(0))
    game = Game(board)
    for r in range(0, 16, 2):
        for c in range(0, 30, 2):
            if (r, c) not in board.mine_cells and not game.is_revealed((r, c)):
                game.reveal((r, c))
    position = game.position()
    # The analysis as recommend reads it, less its safe cells.
    result = types.SimpleNamespace(consistent=True, probabilities_computed=True,
                                   cells=analyze(position).cells, safe=[], seconds=0.0)
    monkeypatch.setattr(strategy_module, "local_deductions", lambda view: ([], []))
    advice = advise(position, result, budget=Budget(0.0))
    assert advice.recommendation is None and advice.note == (
        "no recommendation: the player's search went past its time limit")
    advice = advise(position, result, budget=Budget.seconds(600.0))
    assert advice.recommendation is not None and advice.note is None


def test_overlay_recommends_a_certain_cell_when_there_is_one(client):
    body = client.post("/api/overlay", json={"text": REFERENCE}).json()
    move = body["recommendation"]
    assert move["kind"] == "certain" and move["probability"] == "0"
    safe = {(c["row"], c["col"]) for c in body["analysis"]["cells"] if c["verdict"] == "safe"}
    assert {tuple(c) for c in move["cells"]} == safe
    assert body["fault"] is None


@pytest.mark.parametrize("text", [
    "5x5x3\n1HHHH\nHHHHH\nHHHHH\nHHHHH\nHHHHH\n",  # a corner 1: nothing is certain
    "5x5x3\n1HHHH\nHHHHH\nHHHHH\nHHHHH\nHHHHF\n",  # the same with a flag far away
])
def test_overlay_guess_has_the_exact_probability_of_its_cell(client, text):
    body = client.post("/api/overlay", json={"text": text}).json()
    move = body["recommendation"]
    assert move["kind"] in GUESS_KINDS
    cell = next(c for c in body["analysis"]["cells"]
                if (c["row"], c["col"]) == (move["row"], move["col"]))
    assert move["probability"] == cell["probability"] != "0"
    assert move["reason"]


@pytest.mark.parametrize("text, clues, count", [
    ("3x2\n131\nHHH\n", [[0, 1], [0, 2]], False),          # the 3 needs what the 1 refuses
    ("5x2\nH131H\nHHHHH\n", [[0, 2], [0, 3]], False),
    ("3x3x2\n1FH\nF1H\nHHH\n", [[0, 0]], False),           # two flags around a 1
    ("3x2x3\n111\nHHH\n", [], True),                        # the numbers allow 1 mine only
])
def test_inconsistent_position_names_the_clues_at_fault(client, text, clues, count):
    body = client.post("/api/overlay", json={"text": text}).json()
    assert body["analysis"]["consistent"] is False
    fault = body["fault"]
    assert fault["clues"] == clues and fault["count"] is count
    for r, c in clues:
        assert f"at row {r}, col {c}" in fault["message"]
    # Minimal: without any one of the named clues, the position is consistent.
    rows = text.split("\n")[1:-1]
    header = text.split("\n")[0]
    for r, c in clues:
        opened = list(rows)
        opened[r] = opened[r][:c] + "H" + opened[r][c + 1:]
        if len(clues) > 1:
            rest = position_from_text("\n".join([header, *opened]))
            assert analyze(rest).consistent is True


# -- play -------------------------------------------------------------------------------


def new_game(client, **settings) -> dict:
    answer = client.post("/api/games", json=settings)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_game_is_dealt_from_its_seed_and_first_click(client):
    boards = []
    for _ in range(2):
        game = new_game(client, width=9, height=9, mines=10, rule="opening", seed=12)
        assert not game["started"] and game["rows"] == ["H" * 9] * 9
        after = client.post(f"/api/games/{game['id']}/reveal", json={"row": 4, "col": 4}).json()
        assert after["rows"][4][4] == "0"  # opening: the 3x3 around the click is free
        assert sum(ch != "H" for row in after["rows"] for ch in row) > 9  # zeros flooded
        boards.append(after["rows"])
    assert boards[0] == boards[1]
    other = new_game(client, width=9, height=9, mines=10, rule="opening", seed=13)
    other = client.post(f"/api/games/{other['id']}/reveal", json={"row": 4, "col": 4}).json()
    assert other["rows"] != boards[0]


def test_each_click_records_its_exact_risk(client):
    game = new_game(client, width=16, height=16, mines=40, rule="safe", seed=5)
    gid = game["id"]
    total = Fraction(0)
    while not game["over"]:
        position = position_from_text("\n".join(["16x16x40", *game["rows"]]))
        game = client.post(f"/api/games/{gid}/step").json()
        click = game["clicks"][-1]
        if len(game["clicks"]) == 1:
            assert click["probability"] == "0"  # safe rule: the first click is protected
        else:
            expected = analyze(position).cell(click["row"], click["col"]).probability
            assert Fraction(click["probability"]) == expected
        total = sum((Fraction(c["probability"]) for c in game["clicks"]), Fraction(0))
    assert Fraction(game["risk_total"]) == total
    survival = Fraction(1)
    for c in game["clicks"]:
        survival *= 1 - Fraction(c["probability"])
    assert Fraction(game["survival"]) == survival
    assert game["won"] != game["lost"]
    assert game["lost"] == game["clicks"][-1]["mine"]


def test_a_noguess_game_is_won_without_risk(client):
    game = new_game(client, width=9, height=9, mines=10, rule="opening", seed=3, noguess=True)
    while not game["over"]:
        game = client.post(f"/api/games/{game['id']}/step").json()
        assert game["move"]["kind"] in ("first", "certain")
    assert game["won"] and game["risk_total"] == "0" and game["survival"] == "1"


def test_a_dense_noguess_game_is_dealt_where_the_player_clicks_and_won_without_risk(client):
    # 150 mines on 16x16: the generator used to give up here ("too dense?")
    game = new_game(client, width=16, height=16, mines=150, rule="opening", seed=4,
                    noguess=True)
    game = client.post(f"/api/games/{game['id']}/reveal", json={"row": 5, "col": 11}).json()
    assert game["started"] and not game["lost"]
    while not game["over"]:
        game = client.post(f"/api/games/{game['id']}/step").json()
        assert game["move"]["kind"] == "certain"
    assert game["won"] and game["risk_total"] == "0"


def test_a_noguess_game_is_made_by_the_method_asked(client):
    def board_of(method):
        game = new_game(client, width=9, height=9, mines=10, rule="opening", seed=2,
                        noguess=True, noguess_method=method)
        assert game["noguess_method"] == method
        game = client.post(f"/api/games/{game['id']}/reveal", json={"row": 4, "col": 2}).json()
        while not game["over"]:
            game = client.post(f"/api/games/{game['id']}/step").json()
        assert game["won"] and game["risk_total"] == "0"
        return game["rows"]

    # the chain moves the mines of build's board a thousand times
    assert board_of("chain") != board_of("build")
    answer = client.post("/api/games", json={"noguess": True, "noguess_method": "magic"})
    assert answer.status_code == 400 and answer.json()["error"].startswith("noguess_method")


def test_flags_hints_and_refused_clicks(client):
    game = new_game(client, width=9, height=9, mines=10, rule="safe", seed=1)
    gid = game["id"]
    hint = client.post(f"/api/games/{gid}/hint").json()["move"]
    assert hint["kind"] == "first" and hint["cells"] == [[0, 0]]
    flagged = client.post(f"/api/games/{gid}/flag", json={"row": 8, "col": 8}).json()
    assert flagged["rows"][8][8] == "F" and flagged["flags"] == 1
    refused = client.post(f"/api/games/{gid}/reveal", json={"row": 8, "col": 8})
    assert refused.status_code == 400
    assert refused.json() == {"error": "click: row 8, col 8 is flagged: unflag it first"}
    off = client.post(f"/api/games/{gid}/reveal", json={"row": 9, "col": 0})
    assert off.json() == {"error": "cell: row 9, col 0 is off the 9x9 board"}
    unflagged = client.post(f"/api/games/{gid}/flag", json={"row": 8, "col": 8}).json()
    assert unflagged["rows"][8][8] == "H"
    first = client.post(f"/api/games/{gid}/reveal", json={"row": 0, "col": 0}).json()
    again = client.post(f"/api/games/{gid}/reveal", json={"row": 0, "col": 0})
    assert first["started"] and again.status_code == 400
    hint = client.post(f"/api/games/{gid}/hint").json()["move"]
    assert client.post(f"/api/games/{gid}/hint").json()["move"] == hint  # asked twice: same
    assert client.post("/api/games/nope/step").status_code == 404


def test_a_one_cell_wide_game_is_a_game(client):
    game = new_game(client, width=1, height=5, mines=1, rule="safe", seed=2)
    assert game["rows"] == ["H"] * 5


def test_a_revealed_cell_cannot_be_flagged_and_the_message_names_it(client):
    game = new_game(client, board=CHORD_BOARD)
    client.post(f"/api/games/{game['id']}/reveal", json={"row": 1, "col": 2})
    refused = client.post(f"/api/games/{game['id']}/flag", json={"row": 1, "col": 2})
    assert refused.status_code == 400
    assert refused.json() == {"error": "flag: row 1, col 2 cannot be flagged now"}


@pytest.mark.parametrize("text", ["3x1x1\nH1H\n", "5x1x2\nH1H1H\n", "4x1x1\nH1HH\n"])
def test_a_total_the_numbers_allow_is_no_fault(text):
    # The total at the least (or the most) the numbers allow, with or without cells off the
    # numbers: consistent, so no fault to name.
    from exactmines.analysis.backends import get_backend
    from exactmines.analysis.fault import find_fault

    assert find_fault(position_from_text(text), get_backend("auto")) is None


# A 4x2 board with no zero: (0,0) shows 1 and touches the mine (0,1) and two safe cells.
CHORD_BOARD = "4x2x2\nHMHH\nHHHM\n"


def test_a_chord_opens_the_neighbours_of_a_satisfied_number(client):
    game = new_game(client, board=CHORD_BOARD)
    gid = game["id"]
    client.post(f"/api/games/{gid}/reveal", json={"row": 0, "col": 0})
    refused = client.post(f"/api/games/{gid}/chord", json={"row": 0, "col": 0})
    assert refused.status_code == 400 and refused.json() == {"error": (
        "chord: row 0, col 0 shows 1 with 0 flags around: a chord needs as many flags as "
        "the number")}
    client.post(f"/api/games/{gid}/flag", json={"row": 0, "col": 1})
    game = client.post(f"/api/games/{gid}/chord", json={"row": 0, "col": 0}).json()
    assert game["rows"] == ["1FHH", "11HH"] and not game["over"]
    chord = game["clicks"][-1]
    assert (chord["row"], chord["col"], chord["by"], chord["opened"]) == (0, 0, "chord", 2)
    # Seen before the chord: one mine among (0,1), (1,0), (1,1), the other among the four
    # cells on the right: 12 layouts, (1,0) and (1,1) both safe in 4 of them.
    assert chord["probability"] == "2/3" and not chord["mine"]
    # The flag stays; a covered cell is no chord.
    covered = client.post(f"/api/games/{gid}/chord", json={"row": 0, "col": 2})
    assert covered.status_code == 400
    # The rest by hand: 6 safe cells and no zero, so 3BV 6; 6 clicks made (a reveal, a
    # flag, a chord, 3 reveals; refused ones do not count), efficiency 6/6.
    assert game["bbbv"] is None and game["efficiency"] is None  # only at the end
    for r, c in ((0, 2), (0, 3), (1, 2)):
        game = client.post(f"/api/games/{gid}/reveal", json={"row": r, "col": c}).json()
    assert game["won"] and game["bbbv"] == 6 and game["click_count"] == 6
    assert game["efficiency"] == "1" and game["seconds"] >= 0
    # The fewest clicks that clear the board (brute force over every click sequence), proved:
    # the page shows it beside the player's clicks.
    from test_zini import brute_minimum

    from exactmines.position import Board

    fewest = brute_minimum(Board(4, 2, frozenset({(0, 1), (1, 3)})))
    assert game["zini"] == {"clicks": fewest, "lower_bound": fewest, "optimal": True}
    assert game["zini"]["clicks"] < game["click_count"]


def test_a_chord_on_a_wrong_flag_loses(client):
    game = new_game(client, board=CHORD_BOARD)
    gid = game["id"]
    client.post(f"/api/games/{gid}/reveal", json={"row": 0, "col": 0})
    client.post(f"/api/games/{gid}/flag", json={"row": 1, "col": 0})  # the mine is (0,1)
    game = client.post(f"/api/games/{gid}/chord", json={"row": 0, "col": 0}).json()
    assert game["lost"] and game["rows"][0][1] == "X"
    assert game["clicks"][-1]["mine"] and game["clicks"][-1]["by"] == "chord"
    assert game["bbbv"] == 6 and game["efficiency"] is None and game["zini"] is None


def test_flags_are_never_recommended_nor_taken_away(client):
    game = new_game(client, width=16, height=16, mines=40, rule="safe", seed=21)
    gid = game["id"]
    # Step to the first guess.
    for _ in range(40):
        move = client.post(f"/api/games/{gid}/hint").json()["move"]
        if move["kind"] not in ("first", "certain"):
            break
        game = client.post(f"/api/games/{gid}/step").json()
    assert move["kind"] in GUESS_KINDS
    guess = (move["row"], move["col"])
    client.post(f"/api/games/{gid}/flag", json={"row": guess[0], "col": guess[1]})
    other = client.post(f"/api/games/{gid}/hint").json()
    assert other["move"]["kind"] == "unflagged" and other["note"] is None
    assert (other["move"]["row"], other["move"]["col"]) != guess
    game = client.post(f"/api/games/{gid}/step").json()
    assert game["rows"][guess[0]][guess[1]] == "F" and game["flags"] == 1
    assert (game["clicks"][-1]["row"], game["clicks"][-1]["col"]) == (
        other["move"]["row"], other["move"]["col"])
    # The overlay, told the player's flag, recommends the same unflagged cell when the
    # game's position is the one it was asked on, and never lists the flagged one.
    if not game["over"]:
        hint = client.post(f"/api/games/{gid}/hint").json()
        rows = [row.replace("F", "H") for row in game["rows"]]
        body = client.post("/api/overlay", json={"grid": rows, "mines": 40,
                                                 "flagged": [list(guess)]}).json()
        assert [guess[0], guess[1]] not in [[c["row"], c["col"]] for c in body["candidates"]]
        if hint["move"]["kind"] == "certain":
            assert body["recommendation"]["kind"] == "certain"


def test_a_flag_on_a_certain_cell_is_left_out_of_the_move(client):
    # The reference has five certainly safe cells: flag one, the overlay leaves it out; flag
    # every one, nothing is recommended and the note says the flag is wrong.
    grid = [row for row in REFERENCE.splitlines()[2:]]
    body = client.post("/api/overlay", json={"grid": grid, "mines": 10}).json()
    safe = body["recommendation"]["cells"]
    assert len(safe) == 5
    body = client.post("/api/overlay", json={"grid": grid, "mines": 10,
                                             "flagged": [safe[0]]}).json()
    assert body["recommendation"]["cells"] == safe[1:]
    body = client.post("/api/overlay", json={"grid": grid, "mines": 10,
                                             "flagged": safe}).json()
    assert body["recommendation"] is None
    assert body["note"] == ("no recommendation: every certainly safe cell is flagged (row 1, "
                            "col 0 is safe: that flag is wrong)")


@pytest.mark.parametrize("settings, message", [
    ({"width": 0}, "game: board size 0x9: each side must be 1 to 300"),
    ({"height": 0}, "game: board size 9x0: each side must be 1 to 300"),
    ({"rule": "lucky"},
     "rule: unknown first-click rule 'lucky': choose one of safe, opening, unprotected"),
    ({"mines": 81}, "mines: 81 mines on 9x9: must be 0 to 80"),
    ({"noguess": True, "rule": "unprotected"},
     "rule: a no-guess board needs the rule safe or opening (unprotected cannot promise a safe "
     "first click)"),
    ({"board": "3x1x1\nM1H\n"}, "board:2:2: shows 1 but its neighbours hold 1 marked mine"),
    ({"seed": -1}, "seed: Input should be greater than or equal to 0"),
    # Sizes no game can have, refused before the time allowed for the game is reckoned from
    # them (it was a 500: an OverflowError, or a negative time).
    ({"width": -1_000_000}, "game: board size -1000000x9: each side must be 1 to 300"),
    ({"width": 10**320}, f"game: board size {10**320}x9: each side must be 1 to 300"),
    ({"width": -10**200, "height": 10**200},
     f"game: board size {-10**200}x{10**200}: each side must be 1 to 300"),
])
def test_bad_game_settings_are_400(client, settings, message):
    answer = client.post("/api/games", json=settings)
    if answer.status_code == 200:  # the board above is valid: its game starts
        assert "board" in settings
        return
    assert answer.status_code == 400 and answer.json() == {"error": message}


def test_a_move_that_does_not_end_in_time_is_stopped_and_the_game_kept():
    # A certified no-guess deal this dense takes minutes: the worker dealing it is ended.
    with local_client(create_app(Settings(time_limit=0.3))) as c:
        game = c.post("/api/games", json={"width": 250, "height": 250, "mines": 21_000,
                                          "noguess": True, "rule": "opening",
                                          "seed": 1}).json()
        started = time.monotonic()
        answer = c.post(f"/api/games/{game['id']}/reveal", json={"row": 125, "col": 125})
        assert time.monotonic() - started < 10
        assert answer.status_code == 500
        assert answer.json()["error"].startswith("the move was not finished within ")
        assert answer.json()["error"].endswith(" s and was stopped; the game is as it was "
                                               "before it")
        assert c.get(f"/api/games/{game['id']}").json()["started"] is False
        workers = c.get("/api/health").json()["workers"]
        assert workers["busy"] == 0 and workers["replaced"] >= 1


def test_a_given_board_is_played_as_given(client):
    game = new_game(client, board="3x3x1\nHHH\nHHH\nHHM\n")
    assert game["fixed_board"] and game["mines"] == 1
    after = client.post(f"/api/games/{game['id']}/reveal", json={"row": 0, "col": 0}).json()
    assert after["won"] and after["rows"] == ["000", "011", "01M"]
    assert after["clicks"][0]["probability"] == "1/9"  # nothing protects a given board


# -- files, in memory ---------------------------------------------------------------------


def test_import_and_export_round_trips(client):
    board = "4x3x3\nM1HH\n2HHM\nMHHH\n"
    mbf = client.post("/api/export", json={"text": board, "to": "mbf"}).json()
    assert mbf["encoding"] == "base64" and mbf["suffix"] == ".mbf"
    back = client.post("/api/import", json={"name": "b.mbf", "data": mbf["data"]}).json()
    assert back["kind"] == "mbf" and back["text"] == "4x3x3\nMHHH\nHHHM\nMHHH\n"
    link = client.post("/api/export", json={"text": board, "to": "link"}).json()["data"]
    again = client.post("/api/import", json={"text": link}).json()
    assert again == {"text": back["text"], "kind": "link"}
    xo = client.post("/api/export", json={"text": board, "to": "xo"}).json()["data"]
    assert xo == "xooo\nooox\nxooo\n"
    assert client.post("/api/import", json={"text": xo}).json()["text"] == back["text"]
    mine = client.post("/api/export", json={"text": REFERENCE, "to": "mine"}).json()
    assert mine["data"] == REFERENCE and mine["suffix"] == ".mine"


@pytest.mark.parametrize("body, message", [
    ({"name": "a.mbf", "data": "%%%"}, "a.mbf: not base64 data"),
    ({"name": "a.mbf", "data": base64.b64encode(b"\x02\x02\x00\x09").decode()},
     "a.mbf: MBF header says 9 mines (22 bytes) but the file has 4 bytes"),
    ({"text": "https://x/index.html?b=1&m=zz"},
     "pasted text: m= has 2 digits but a 9x9 board needs 17 (five cells a digit)"),
    ({"text": "9x9x10\nHHH\n"},
     "pasted text:3:1: missing row 2: the header promises 9 rows, found 1"),
    ({}, "body: give either data (base64) or text"),
])
def test_bad_imports_are_400(client, body, message):
    answer = client.post("/api/import", json=body)
    assert answer.status_code == 400 and answer.json() == {"error": message}


def test_export_of_a_position_without_mines_marked_is_refused(client):
    answer = client.post("/api/export", json={"text": REFERENCE, "to": "mbf"})
    assert answer.status_code == 400
    assert "a board must mark every mine" in answer.json()["error"]
    big = "300x1x1\n" + "M" + "H" * 299 + "\n"
    answer = client.post("/api/export", json={"text": big, "to": "mbf"})
    assert answer.status_code == 400 and "save .mine instead" in answer.json()["error"]


def test_no_endpoint_opens_a_file(client, monkeypatch):
    replay = replay_body(REPLAYS / "public" / "vienna-beginner-24px-thomas-kolar.rmv")
    ms_toollib_version()  # reads the installed package's metadata, once per process
    opened: list[str] = []
    real_open = builtins.open

    def watching_open(file, *args, **kwargs):
        if not isinstance(file, int):  # a descriptor: the pipes to a child process
            opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", watching_open)
    monkeypatch.setattr(io, "open", watching_open)
    # The server's side (the health check reads its processes' memory from /proc) ...
    client.get("/api/health")
    client.post("/api/analyze", json={"text": REFERENCE})
    client.post("/api/overlay", json={"text": REFERENCE})
    client.post("/api/import", json={"text": "xo\nox\n"})
    client.post("/api/export", json={"text": "2x1x1\nM1\n", "to": "mbf"})
    game = new_game(client, seed=2, noguess=True)
    client.post(f"/api/games/{game['id']}/step")
    client.post(f"/api/games/{game['id']}/flag", json={"row": 8, "col": 8})
    client.get(f"/api/games/{game['id']}")
    assert client.post("/api/replay", json=replay).status_code == 200
    assert [name for name in opened if not name.startswith("/proc/")] == []
    opened.clear()
    # ... and the jobs its workers run, here in this process where open is watched.
    request = bodies.Request(REFERENCE, None, None, "auto", 5.0, grouped=True)
    bodies.analysis_body(request)
    bodies.overlay_body(request)
    bodies.unanswered_body(request, True, 1.0)
    bodies.import_body("", None, "xo\nox\n")
    bodies.export_body("2x1x1\nM1\n", "mbf")
    state, _ = bodies.new_game("g", 9, 9, 10, "safe", 2, True, None, 5.0)
    for method, args in [("reveal", ((0, 0),)), ("flag", ((8, 8),)), ("step", ()),
                         ("hint", ()), ("to_dict", ())]:  # (a step may open 8,8)
        state = bodies.play(state, "g", method, args)[0] or state
    bodies.replay_body(replay["name"], replay["data"], False, 5.0)
    assert opened == []


def test_openapi_documents_the_endpoints(client):
    schema = client.get("/openapi.json").json()
    for path in ("/api/analyze", "/api/overlay", "/api/health", "/api/games", "/api/replay",
                 "/api/games/{game_id}/reveal", "/api/games/{game_id}/step",
                 "/api/import", "/api/export"):
        assert path in schema["paths"]
    content = schema["paths"]["/api/analyze"]["post"]["requestBody"]["content"]
    assert set(content) == {"application/json", "text/plain"}
    assert client.get("/docs").status_code == 404  # its page would load a CDN


# -- the command ------------------------------------------------------------------------


def _serve(*options: str):
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-m", "exactmines", "serve", "--port", "0",
                             *options], stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("host, where", [("127.0.0.1", "(this machine only)"),
                                         ("127.0.0.2", "WARNING: bound to 127.0.0.2")])
def test_serve_says_where_it_listens_and_answers(host, where):
    import signal
    import urllib.request

    server = _serve("--host", host)
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        assert line.startswith(f"exactmines: serving http://{host}:") and where in line
        url = line.split()[2]
        with urllib.request.urlopen(url + "api/health", timeout=10) as answer:
            assert json.loads(answer.read())["status"] == "ok"
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert b"exactmines" in answer.read()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(20)
    assert server.returncode in (0, 130)


def test_serve_refuses_a_bad_port_and_a_taken_one(capsys):
    assert main(["serve", "--port", "70000"]) == 2
    assert capsys.readouterr().err == ("exactmines: error: command line: --port 70000: must be "
                                       "0 to 65535\n")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err == (f"exactmines: error: cannot listen on 127.0.0.1:{port} (taken, or not an "
                   "address of this machine)\n")


def test_serve_refuses_a_time_limit_by_the_librarys_rule(capsys):
    # One rule for every time limit (Budget.seconds), with its one message.
    assert main(["serve", "--time-limit", "0"]) == 2
    assert capsys.readouterr().err == ("exactmines: error: command line: --time-limit 0.0: "
                                       f"{LIMIT_RULE}\n")


def test_an_app_served_again_after_a_shutdown_answers():
    app = create_app()
    for _ in range(2):
        with local_client(app) as c:
            answer = c.post("/api/analyze", json={"text": REFERENCE})
            assert answer.status_code == 200 and answer.json()["layouts"] == "1031"


def test_a_grid_on_another_topology_answers_as_its_mine_text(client):
    # The corner 1 of a 3x2 torus sees every other cell; of a hex board, two of them.
    for word, layouts in (("torus", 5), ("hex", 2)):
        text = f"3x2x1 {word}\n1HH\nHHH\n"
        grid = client.post("/api/analyze", json={"grid": ["1HH", "HHH"], "mines": 1,
                                                 "topology": word}).json()
        assert grid == {**client.post("/api/analyze", json={"text": text}).json(),
                        "seconds": grid["seconds"]}
        assert grid["topology"] == word and grid["layouts"] == str(layouts)
    refused = client.post("/api/analyze", json={"grid": ["1H"], "topology": "cube"})
    assert refused.status_code == 400 and "topology" in refused.json()["error"]


def test_a_torus_game_counts_across_its_edges(client):
    game = client.post("/api/games", json={"width": 5, "height": 5, "mines": 3, "seed": 2,
                                           "topology": "torus", "rule": "safe"}).json()
    assert game["topology"] == "torus"
    game = client.post(f"/api/games/{game['id']}/reveal", json={"row": 0, "col": 0}).json()
    while not game["over"]:
        game = client.post(f"/api/games/{game['id']}/step").json()
    from exactmines.topology import named_topology

    table = named_topology("torus", 5, 5).neighbour_table
    flat = "".join(game["rows"])
    numbers = [(i, int(ch)) for i, ch in enumerate(flat) if ch.isdigit()]
    assert numbers and all(n == sum(flat[j] in "MX" for j in table[i]) for i, n in numbers)
    # Some number counts a mine across an edge: not what the square grid would show.
    square = named_topology("square", 5, 5)
    assert any(n != sum(flat[j] in "MX" for j in square.neighbour_table[i])
               for i, n in numbers)


# -- replays ----------------------------------------------------------------------------

REPLAYS = Path(__file__).parent / "data" / "replays"


def replay_body(path: Path, **options) -> dict:
    return {"name": path.name, "data": base64.b64encode(path.read_bytes()).decode(), **options}


def test_a_replay_is_judged_as_the_command_line_judges_it(client, capsys):
    path = REPLAYS / "public" / "vienna-beginner-24px-thomas-kolar.rmv"
    answer = client.post("/api/replay", json=replay_body(path))
    assert answer.status_code == 200
    page = answer.json()
    assert main(["replay", str(path), "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    shown, mines = page.pop("shown"), page.pop("board_mines")
    assert without_timing(page) == without_timing(printed)
    # The board before each event, and after the last one.
    assert len(shown) == len(page["events"]) + 1
    assert shown[0] == ["H" * 8] * 8
    assert "F" in "".join(shown[2])  # the flag put by event 1
    assert len(mines) == 10 and all(shown[-1][r][c] in "HF" for r, c in mines)


def test_a_replay_with_flags_trusted(client):
    path = REPLAYS / "recorded" / "clumsy-small-5x5x4-seed21-v0.evf"
    fair = client.post("/api/replay", json=replay_body(path)).json()
    trusting = client.post("/api/replay", json=replay_body(path, trust_flags=True)).json()
    assert (fair["lost_at"]["probability"], trusting["lost_at"]["probability"]) == ("1/2", "0")


@pytest.mark.parametrize("name, data, message", [
    ("game.txt", b"x", "game.txt: not a replay"),
    ("game.rmv", (REPLAYS / "public" / "damaged-vienna-invalid-utf8.rmv").read_bytes(),
     "game.rmv: ms_toollib"),
    ("game.avf", b"", "game.avf: empty file"),
])
def test_a_bad_replay_is_400_with_one_line(client, name, data, message):
    answer = client.post("/api/replay", json={"name": name,
                                              "data": base64.b64encode(data).decode()})
    assert answer.status_code == 400 and answer.json()["error"].startswith(message)


def test_a_stopped_replay_answers_with_its_clicks_not_judged(capsys):
    # What /api/replay answers when its worker had to be ended: the replay, its clicks
    # not judged but those the rules prove safe, and a note saying why.
    path = REPLAYS / "public" / "clone-expert-zhang-shen-jia.mvf"
    data = base64.b64encode(path.read_bytes()).decode()
    body = json.loads(bodies.unjudged_replay_body(path.name, data, False, 2.5))
    assert main(["replay", str(path), "--format", "json"]) == 0
    full = json.loads(capsys.readouterr().out)
    assert len(body["events"]) == len(full["events"]) and len(body["shown"]) == len(
        body["events"]) + 1
    assert body["notes"][-1] == ("the judging was stopped after 2.5 s (it did not end at its "
                                 "time limit): the clicks the rules do not prove safe are not "
                                 "judged")
    for stopped, judged in zip(body["events"], full["events"], strict=True):
        if stopped["class"] == "not judged":
            assert judged["class"] != "first" and stopped["probability"] is None
        else:  # what is claimed is what the full judging finds
            assert (stopped["class"], stopped["probability"]) == (judged["class"],
                                                                   judged["probability"])
    assert body["classes"]["safe"] > 0 and body["classes"]["not judged"] > 0
    assert body["guesses"] == 0 and body["luck"] == "1"


LARGE = INSTANCES / "large-300x300x18000-seed1.mine"


def test_the_overlay_analyses_with_the_budget_the_analysis_endpoint_has(monkeypatch):
    # The overlay gave its analysis 0.6 of the time (and the analysis counts in half of
    # its own): on the shipped 300x300 position at 5 s it was "not computed" most loads
    # while /api/analyze counted it. Both analyses now get the request's same budget
    # (a fixed deadline here, so that the comparison is exact whatever the machine's load).
    deadline = time.monotonic() + 10_000.0
    monkeypatch.setattr(bodies.Budget, "seconds",
                        classmethod(lambda cls, limit, parameter="": cls(deadline)))
    seen = []

    def recorded(position, *, backend, budget, cache=None):
        seen.append(budget)
        return analyze(position, backend=backend, budget=budget, cache=cache)

    monkeypatch.setattr(bodies, "analyze", recorded)
    request = bodies.Request(REFERENCE, None, None, "auto", 5.0, grouped=True)
    bodies.analysis_body(request)
    bodies.overlay_body(request)
    assert [b.deadline for b in seen] == [deadline, deadline]


def test_the_overlay_of_300x300_out_of_time_says_so_in_a_few_lines(monkeypatch):
    # Every one of its 62 components out of time: one note for their layouts, not 61. The
    # frontier is built (its checks pass) and every later look at the clock runs out, so
    # the outcome does not depend on the machine's speed.
    def out_of_time(budget, doing="counting layouts"):
        if doing != BUILDING:
            raise OutOfTime(f"out of time while {doing} (test)")

    monkeypatch.setattr(Budget, "check", out_of_time)
    text = LARGE.read_text()
    body = json.loads(bodies.overlay_body(bodies.Request(text, None, None, "auto", 5.0,
                                                        grouped=True)))
    notes = body["analysis"]["notes"]
    assert len(notes) <= 3, notes
    assert body["analysis"]["components"] is not None
    if body["analysis"]["layouts"] is None:
        (counted,) = [n for n in notes if "layouts not counted" in n]
        assert counted.startswith(f"{body['analysis']['components']} components (1, 2, 3")
