/* Analyse mode: the position drawn cell by cell, its size and mine count, files out. */
import { api } from "./api.js";
import { buildBoard, fitZoom } from "./board.js";
import { mineText as mineTextOf } from "./boardcodec.js";
import { $, clearError, el, showError } from "./dom.js";
import { writeFragment } from "./link.js";
import { refreshOverlay } from "./overlay.js";
import { hideTooltip, showCellInfo } from "./panels.js";
import { MAX_CELLS, rows, state } from "./state.js";

/** The position shown as .mine text. */
export const mineText = () => mineTextOf(state.width, state.height, state.mines, rows());

/** An empty (all covered) width x height board with this many mines (null: unknown). */
export function newBoard(width, height, mines) {
  if (!(width >= 1 && height >= 1 && width * height <= MAX_CELLS)) {
    showError(`board size ${width}x${height}: at least 1x1 and at most ${MAX_CELLS} cells here`);
    return;
  }
  if (mines !== null && !(mines >= 0 && mines <= width * height)) {
    showError(`${mines} mines do not fit on ${width}x${height}`);
    return;
  }
  clearError();
  state.width = width; state.height = height; state.mines = mines;
  state.grid = new Array(width * height).fill("H");
  startEditing();
}

/** Show the position held in the state, a new one: board, inputs, link, overlay (the
 * view scrolls to its recommended cell); nothing to undo yet. */
export function startEditing() {
  syncSizeInputs();
  state.history = [];
  if (buildBoard(state.width, state.height)) { hideTooltip(); showCellInfo(null); }
  fitZoom();
  writeFragment();
  state.scrollToRec = true;
  refreshOverlay();
}

function syncSizeInputs() {
  $("width").value = state.width; $("height").value = state.height;
  $("mines").value = state.mines === null ? "" : state.mines;
  const key = `${state.width}x${state.height}x${state.mines}`;
  $("preset").value = ["9x9x10", "16x16x40", "30x16x99"].includes(key) ? key : "custom";
}

/** Put character ch (0-8, H, F, M) on cell i (undone by undo). */
export function setCell(i, ch) {
  if (state.grid[i] === ch) return;
  state.history.push([i, state.grid[i]]);
  state.grid[i] = ch;
  writeFragment();
  refreshOverlay();
}

/** Take back the last change of a cell; false when there is none. */
export function undo() {
  const last = state.history.pop();
  if (!last) return false;
  const [i, ch] = last;
  state.grid[i] = ch;
  state.cursor = i;
  writeFragment();
  refreshOverlay();
  showCellInfo(i);
  return true;
}

/** A click on cell i with the tool chosen ("look" only shows the cell). */
export function applyTool(i, tool) {
  if (tool === "look") { showCellInfo(i); return; }
  setCell(i, tool === "F" && state.grid[i] === "F" ? "H" : tool);
}

/** Save the position as kind ("mine", "mbf"), converted by the server. */
export async function download(kind) {
  try {
    const answer = await api("/api/export", { text: mineText(), to: kind });
    clearError();
    let blob;
    if (answer.encoding === "base64") {
      const raw = atob(answer.data);
      blob = new Blob([Uint8Array.from(raw, (ch) => ch.charCodeAt(0))], { type: "application/octet-stream" });
    } else {
      blob = new Blob([answer.data], { type: "text/plain" });
    }
    const link = el("a", { href: URL.createObjectURL(blob), download: `position-${state.width}x${state.height}${answer.suffix}` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (error) { showError(error.message); }
}
