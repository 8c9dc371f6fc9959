/* The exact overlay: /api/overlay for the position shown, answers to older positions
 * dropped, and every way a request can end said on the page (never "Analysing…" for ever). */
import { api } from "./api.js";
import { cellVisible, render, scrollToCell } from "./board.js";
import { $, clearError, showError } from "./dom.js";
import { parseFraction } from "./numbers.js";
import { renderPanel } from "./panels.js";
import { flagsAreMarks, gameOver, positionKey, rows, state } from "./state.js";

const boardEl = $("board");
/** A busy server (503) is asked again this many times, after the wait it names. */
const RETRIES = 3;

function overlayBody() {
  const body = { backend: $("backend").value, time_limit: state.timeLimit || undefined,
    grouped: true };  // the cells by value: each fraction once
  if (flagsAreMarks()) {
    // What the player sees (in a game, or before a replay's event); the player's flags are
    // sent apart: never trusted as mines, never recommended.
    const shown = rows();
    const flagged = [];
    shown.forEach((row, r) => {
      for (let c = 0; c < row.length; c++) if (row[c] === "F") flagged.push([r, c]);
    });
    body.grid = shown.map((row) => row.replace(/[FMX]/g, "H"));
    body.mines = state.mode === "play" ? state.game.mines : state.replay.answer.mines;
    // A replay is of the square grid (the formats know no other board).
    if (state.mode === "play") body.topology = state.game.topology;
    body.flagged = flagged;
  } else if (state.mode === "replay") {
    // A replay whose flags are trusted: they are mines, as the player took them.
    body.grid = rows();
    body.mines = state.replay.answer.mines;
  } else {
    body.grid = rows();
    body.topology = state.topology;
    if (state.mines !== null) body.mines = state.mines;
  }
  return body;
}

/** The overlay's per-cell facts, by cell index. */
function takeAnswer(answer) {
  const width = state.width;
  const at = ([r, c]) => r * width + c;
  state.cellInfo = new Map();
  for (const group of answer.analysis.cell_groups) {
    const info = { p: parseFraction(group.probability), verdict: group.verdict };
    for (const i of group.cells) state.cellInfo.set(i, info);
  }
  const rank = new Map();
  (answer.candidates || []).forEach((c, k) => rank.set(at([c.row, c.col]), k + 1));
  state.marks = {
    dead: new Set((answer.dead || []).map(at)),
    fifty: new Set((answer.fifty_fifties || []).flat().map(at)),
    rank,
  };
}

const wait = (ms) => new Promise((done) => setTimeout(done, ms));

/** Ask for the overlay of the position shown, unless it is held already; the board and
 * the panel show the answer (or why there is none) when it comes, if the position is
 * still shown. */
export async function refreshOverlay() {
  const key = positionKey();
  const none = state.mode === "play" ? !state.game : state.mode === "replay" ? !state.replay : false;
  if (!state.overlayOn || none || gameOver()) {
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
  state.overlayError = null;
  state.picked = null;
  boardEl.dataset.state = "busy";
  $("busy").textContent = "analysing…";
  render(); renderPanel();  // the old numbers go at once: they belong to another position
  const body = overlayBody();
  // However the server fares, the page gives up waiting after the longest it may take.
  const limit = state.timeLimit || Number($("time-limit").value) || 5;
  const timer = setTimeout(() => controller.abort("timeout"), (2 * limit + 15) * 1000);
  let answer;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        answer = await api("/api/overlay", body, controller.signal);
        break;
      } catch (error) {
        if (error.status !== 503 || attempt >= RETRIES || mine !== state.seq) throw error;
        const seconds = Math.min(Math.max(Number(error.retryAfter) || 1, 1), 10);
        $("busy").textContent = `the server is busy: asking again in ${seconds} s…`;
        await wait(seconds * 1000);
        if (mine !== state.seq) return;
      }
    }
  } catch (error) {
    if (mine !== state.seq) return;  // a newer position is on its way
    const message = controller.signal.aborted
      ? `no answer within ${2 * limit + 15} s`
      : error.status === undefined ? `the server does not answer (${error.message})` : error.message;
    state.overlayError = { key, message };
    boardEl.dataset.state = "error";
    $("busy").textContent = "";
    showError(message);
    render(); renderPanel();
    return;
  } finally {
    clearTimeout(timer);
  }
  if (mine !== state.seq || key !== positionKey()) return;  // stale: drop it
  clearError();
  state.overlay = answer;
  state.overlayKey = key;
  takeAnswer(answer);
  boardEl.dataset.state = "ready";
  boardEl.dataset.key = key;
  $("busy").textContent = "";
  render(); renderPanel();
  const move = answer.recommendation;
  if (state.scrollToRec && move) {
    state.scrollToRec = false;
    const i = move.row * state.width + move.col;
    if (!cellVisible(i)) scrollToCell(i);
  }
}
