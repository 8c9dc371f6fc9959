/* What the page shows, in one object that every module reads and changes. */
import { gridRows } from "./boardcodec.js";

/** The page draws one element per cell: past this many, a browser gets slow to edit. */
export const MAX_CELLS = 40000;

export const state = {
  mode: "edit",
  width: 9, height: 9, mines: 10,
  grid: [],            // edit: one character per cell (H F M 0-8)
  tool: "look",
  cursor: 0,
  overlayOn: true,
  overlay: null,       // the last /api/overlay answer ...
  overlayKey: null,    // ... and the position it belongs to
  cellInfo: new Map(), // index -> {p, verdict} of that answer
  seq: 0,
  controller: null,
  game: null,
  hintMove: null,
  autoplay: false,
  zoom: 28,
  backends: ["auto"],
  lastCellShown: null,
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

/** The rows on the board: the game's in play, the editor's grid otherwise. */
export function rows() {
  if (state.mode === "play") return state.game ? state.game.rows : [];
  if (state.mode === "replay") return replayRows();
  return gridRows(state.grid, state.width, state.height);
}

/** Names the position shown: an overlay belongs to the key it was asked for. */
export function positionKey() {
  if (state.mode === "play") {
    const g = state.game;
    return g ? `game:${g.id}:${g.clicks.length}` : "game:none";
  }
  if (state.mode === "replay") {
    const r = state.replay;
    return r ? `replay:${r.name}:${r.answer.trust_flags}:${r.step}` : "replay:none";
  }
  return `${state.width}x${state.height}x${state.mines}:${rows().join("/")}`;
}

/** Whether the overlay held is on and is the answer for the position shown. */
export function overlayValid() {
  return state.overlayOn && state.overlay !== null && state.overlayKey === positionKey();
}
