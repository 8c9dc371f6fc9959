"""``/api/import`` and ``/api/export``: files converted in memory (nothing is read from or
written to the server's disk)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from exactmines.ui.web import bodies
from exactmines.ui.web.models import ExportReply, ExportRequest, ImportReply, ImportRequest
from exactmines.ui.web.routes.analysis import json_response
from exactmines.ui.web.service import Server

__all__ = ["router"]

router = APIRouter()


@router.post("/api/import", response_model=ImportReply,
             summary="A .mbf, x/o, .mine file or a JSMinesweeper link -> "
                     ".mine text")
async def import_endpoint(body: ImportRequest, server: Server) -> Response:
    size = len(body.data or "") + len(body.text or "")
    settings = server.settings
    return json_response(await server.run(
        bodies.import_body, (body.name, body.data, body.text),
        settings.time_limit + settings.per_cell * size,
        "the import was not finished within {seconds} s and was stopped"))


@router.post("/api/export", response_model=ExportReply,
             summary="A .mine position or board -> .mine, .mbf (base64), "
                     "x/o text or a JSMinesweeper link")
async def export_endpoint(body: ExportRequest, server: Server) -> Response:
    settings = server.settings
    return json_response(await server.run(
        bodies.export_body, (body.text, body.to),
        settings.time_limit + settings.per_cell * len(body.text),
        "the export was not finished within {seconds} s and was stopped"))
