/* What the page shows, in one object that every module reads and changes. */
import { gridRows } from "./boardcodec.js";

/** The page draws one element per cell: up to a 300x300 board. */
export const MAX_CELLS = 90000;

export const state = {
  mode: "edit",
  width: 9, height: 9, mines: 10,
  topology: "square",  // edit: the board's shape (topology.js); a game has its own
  grid: [],            // edit: one character per cell (H F M 0-8)
  history: [],         // edit: [cell, character before] of each change, for undo
  tool: "look",
  cursor: 0,
  overlayOn: true,
  overlay: null,       // the last /api/overlay answer ...
  overlayKey: null,    // ... and the position it belongs to
  overlayError: null,  // {key, message}: why the position shown has no overlay
  cellInfo: new Map(), // index -> {p, verdict} of that answer
  marks: null,         // index sets of that answer: {dead, fifty, rank} (see overlay.js)
  seq: 0,
  controller: null,
  game: null,
  hintMove: null,
  hintNote: null,
  autoplay: false,
  stepDelay: 0,        // ms between the auto-player's moves
  clock: null,         // {seconds, at}: the game's time when last heard, and performance.now()
  timeLimit: null,     // seconds per analysis asked for here (null: the server's default)
  zoom: 28,
  backends: ["auto"],
  lastCellShown: null,
  hover: null,         // {i, x, y}: the cell under the pointer and where the tooltip is
  picked: null,        // a cell picked in the list of guesses (highlighted)
  scrollToRec: false,  // scroll to the recommended cell when the next overlay comes
  replay: null,        // replay: {name, data (base64), answer (/api/replay), step}
};

/** The replay's event about to be played at the step shown (null at the end). */
export function replayEvent() {
  const r = state.replay;
  return r && r.step < r.answer.events.length ? r.answer.events[r.step] : null;
}

/** The rows of a replay at the step shown: before its event, or at the end with every
 * mine shown (M) and the one that went off (X). */
function replayRows() {
  const r = state.replay;
  if (!r) return [];
  const shown = r.answer.shown[r.step];
  if (r.step < r.answer.events.length) return shown;
  const cells = shown.map((row) => row.split(""));
  for (const [row, col] of r.answer.board_mines) {
    if (cells[row][col] === "H" || cells[row][col] === "F") cells[row][col] = "M";
  }
  const lost = r.answer.lost_at && r.answer.events[r.answer.lost_at.index];
  if (lost) for (const [row, col] of lost.opens) if (cells[row][col] === "M") cells[row][col] = "X";
  return cells.map((row) => row.join(""));
}

/** Whether the flags shown are a player's marks, which the analysis does not trust (a
 * game's; a replay's unless trusted), rather than known mines (the editor's). */
export function flagsAreMarks() {
  if (state.mode === "play") return true;
  return state.mode === "replay" && Boolean(state.replay) && !state.replay.answer.trust_flags;
}

/** Whether the game shown is over: a game ended, or a replay at its end. */
export function gameOver() {
  if (state.mode === "play") return Boolean(state.game && state.game.over);
  if (state.mode === "replay") return Boolean(state.replay) && !replayEvent();
  return false;
}

/** The rows on the board: the game's in play, the replay's at its step, the editor's grid
 * otherwise. */
export function rows() {
  if (state.mode === "play") return state.game ? state.game.rows : [];
  if (state.mode === "replay") return replayRows();
  return gridRows(state.grid, state.width, state.height);
}

/** A short name for a long text (32-bit FNV-1a, in hex): flags placed change a game's rows
 * but not its clicks. */
function textHash(text) {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return (h >>> 0).toString(16);
}

/** Names the position shown: an overlay belongs to the key it was asked for. */
export function positionKey() {
  if (state.mode === "play") {
    const g = state.game;
    return g ? `game:${g.id}:${g.clicks.length}:${textHash(g.rows.join(""))}` : "game:none";
  }
  if (state.mode === "replay") {
    const r = state.replay;
    return r ? `replay:${r.name}:${r.answer.trust_flags}:${r.step}` : "replay:none";
  }
  return `${state.width}x${state.height}x${state.mines}@${state.topology}:${rows().join("/")}`;
}

/** Whether the overlay held is on and is the answer for the position shown. */
export function overlayValid() {
  return state.overlayOn && state.overlay !== null && state.overlayKey === positionKey();
}

/** Why the position shown has no overlay (the request failed), or null. */
export function overlayFailed() {
  return state.overlayError && state.overlayError.key === positionKey() ? state.overlayError.message : null;
}
