"""``GET /``: the page (its files are mounted at ``/static`` by the app)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse

from exactmines.ui.web.service import STATIC

__all__ = ["router"]

router = APIRouter()


@router.get("/", include_in_schema=False)
async def page() -> FileResponse:
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")
