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
};

/** The rows on the board: the game's in play, the editor's grid otherwise. */
export function rows() {
  if (state.mode === "play") return state.game ? state.game.rows : [];
  return gridRows(state.grid, state.width, state.height);
}

/** Names the position shown: an overlay belongs to the key it was asked for. */
export function positionKey() {
  if (state.mode === "play") {
    const g = state.game;
    return g ? `game:${g.id}:${g.clicks.length}` : "game:none";
  }
  return `${state.width}x${state.height}x${state.mines}:${rows().join("/")}`;
}

/** Whether the overlay held is on and is the answer for the position shown. */
export function overlayValid() {
  return state.overlayOn && state.overlay !== null && state.overlayKey === positionKey();
}
