"""The OpenAPI schema describes every reply: each route declares its reply's model
(``ui/web/models.py``), and real replies of every route validate against it (no key the
model lacks, none it requires missing), so that the published schema says what is sent."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from exactmines.io.registry import FORMATS
from exactmines.ui.web import bodies
from exactmines.ui.web.app import create_app
from exactmines.ui.web.models import (
    AnalysisReply,
    ExportReply,
    GameReply,
    HealthReply,
    ImportReply,
    OverlayReply,
    ReplayReply,
)

ROOT = Path(__file__).parent.parent
INSTANCES = ROOT / "instances"
REFERENCE = (INSTANCES / "reference-9x9.mine").read_text()
REPLAY = ROOT / "tests" / "data" / "replays" / "public" / "vienna-beginner-24px-thomas-kolar.rmv"
POSITIONS = [REFERENCE, "3x2\n131\nHHH\n", "3x2x3\n111\nHHH\n",
             *((INSTANCES / name).read_text() for name in (
                 "guide-candidates-30x16x99-seed1.mine", "guide-endgame-16x16x40-seed35.mine",
                 "guide-pair-16x16x40-seed22.mine", "cube-position-5x5x5x15-seed1-000.mine",
                 "hex-position-30x16x99-seed1-000.mine"))]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), base_url="http://127.0.0.1:8000") as c:
        yield c


def ok(answer) -> dict:
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_every_api_route_declares_its_reply():
    schema = create_app().openapi()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            content = operation["responses"]["200"]["content"]["application/json"]
            assert content["schema"].get("$ref", "").startswith("#/components/schemas/"), (
                method, path)


@pytest.mark.parametrize("text", POSITIONS)
def test_analysis_and_overlay_replies_fit_their_models(client, text):
    AnalysisReply.model_validate(ok(client.post("/api/analyze", json={"text": text})))
    for grouped in (False, True):
        OverlayReply.model_validate(ok(client.post("/api/overlay",
                                                   json={"text": text, "grouped": grouped})))


def test_the_overlays_with_every_part_fit(client):
    # A guess with candidates, an endgame's odds, a fault: each part once not null.
    seen = {key: False for key in ("candidates", "endgame", "fault", "recommendation")}
    for text in POSITIONS:
        body = ok(client.post("/api/overlay", json={"text": text}))
        for key in seen:
            seen[key] = seen[key] or bool(body[key])
    assert all(seen.values()), seen


def test_the_answers_of_a_stopped_worker_fit(client):
    request = bodies.Request(REFERENCE, None, None, "auto", 1.0)
    AnalysisReply.model_validate(json.loads(bodies.unanswered_body(request, False, 1.0)))
    for grouped in (False, True):
        OverlayReply.model_validate(json.loads(bodies.unanswered_body(
            request._replace(grouped=grouped), True, 1.0)))


def test_health_import_and_every_export_fit(client):
    HealthReply.model_validate(ok(client.get("/api/health")))
    ImportReply.model_validate(ok(client.post("/api/import", json={"text": "xo\nox\n"})))
    board = "3x2x1\nHMH\nHHH\n"
    for name in FORMATS:
        reply = ok(client.post("/api/export", json={"text": board, "to": name}))
        ExportReply.model_validate(reply)
        assert reply["suffix"] == FORMATS[name].suffix


def test_a_replay_fits(client):
    data = base64.b64encode(REPLAY.read_bytes()).decode()
    ReplayReply.model_validate(ok(client.post("/api/replay",
                                              json={"name": REPLAY.name, "data": data})))


def test_every_game_reply_fits(client):
    game = GameReply.model_validate(ok(client.post("/api/games", json={"seed": 3})))
    at = f"/api/games/{game.id}"
    for path, body in [("/reveal", {"row": 0, "col": 0}), ("/flag", {"row": 8, "col": 8}),
                       ("/hint", None), ("/step", None), ("/chord", {"row": 0, "col": 0})]:
        answer = client.post(at + path, json=body)
        if answer.status_code == 200:
            GameReply.model_validate(answer.json())
        else:  # a chord the position does not allow: one line
            assert answer.status_code == 400 and set(answer.json()) == {"error"}
    GameReply.model_validate(ok(client.get(at)))
