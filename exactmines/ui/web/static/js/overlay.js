/* The exact overlay: /api/overlay for the position shown, answers to older positions
 * dropped. */
import { api } from "./api.js";
import { render } from "./board.js";
import { $, clearError, showError } from "./dom.js";
import { parseFraction } from "./numbers.js";
import { renderPanel } from "./panels.js";
import { positionKey, rows, state } from "./state.js";

const boardEl = $("board");

function overlayBody() {
  const body = { backend: $("backend").value, time_limit: Number($("time-limit").value) || undefined };
  if (state.mode === "play") {
    // What the player sees, without the player's flags (never trusted).
    body.grid = state.game.rows.map((row) => row.replace(/[FMX]/g, "H"));
    body.mines = state.game.mines;
  } else if (state.mode === "replay") {
    // The position before the click shown; the player's flags only if they are trusted.
    const trusted = state.replay.answer.trust_flags;
    body.grid = rows().map((row) => (trusted ? row : row.replace(/F/g, "H")));
    body.mines = state.replay.answer.mines;
  } else {
    body.grid = rows();
    if (state.mines !== null) body.mines = state.mines;
  }
  return body;
}

/** Ask for the overlay of the position shown, unless it is held already; the board and
 * the panel show the answer (or the error) when it comes, if the position is still shown. */
export async function refreshOverlay() {
  const key = positionKey();
  const over = state.mode === "play" ? !state.game || state.game.over
    : state.mode === "replay" ? !state.replay || state.replay.step >= state.replay.answer.events.length
      : false;
  if (!state.overlayOn || over) {
    boardEl.dataset.state = "idle";
    render(); renderPanel();
    return;
  }
  if (state.overlayKey === key && state.overlay) {  // held already (a replay's step again)
    boardEl.dataset.state = "ready";
    boardEl.dataset.key = key;
    render(); renderPanel();
    return;
  }
  const mine = ++state.seq;
  if (state.controller) state.controller.abort();
  const controller = new AbortController();
  state.controller = controller;
  boardEl.dataset.state = "busy";
  $("busy").textContent = "analysing…";
  render(); renderPanel();  // the old numbers go at once: they belong to another position
  let answer;
  try {
    answer = await api("/api/overlay", overlayBody(), controller.signal);
  } catch (error) {
    if (mine !== state.seq) return;  // a newer position is on its way
    boardEl.dataset.state = "error";
    $("busy").textContent = "";
    showError(error.message);
    return;
  }
  if (mine !== state.seq || key !== positionKey()) return;  // stale: drop it
  clearError();
  state.overlay = answer;
  state.overlayKey = key;
  state.cellInfo = new Map();
  for (const cell of answer.analysis.cells) {
    state.cellInfo.set(cell.row * state.width + cell.col,
      { p: parseFraction(cell.probability), verdict: cell.verdict });
  }
  boardEl.dataset.state = "ready";
  boardEl.dataset.key = key;
  $("busy").textContent = "";
  render(); renderPanel();
}
