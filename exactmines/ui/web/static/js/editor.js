/* Analyse mode: the position drawn cell by cell, its size and mine count, files out. */
import { api } from "./api.js";
import { buildBoard, fitZoom } from "./board.js";
import { mineText as mineTextOf } from "./boardcodec.js";
import { $, clearError, el, showError } from "./dom.js";
import { writeFragment } from "./link.js";
import { refreshOverlay } from "./overlay.js";
import { showCellInfo } from "./panels.js";
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

/** Show the position held in the state: board, inputs, link, overlay. */
export function startEditing() {
  syncSizeInputs();
  buildBoard(state.width, state.height);
  fitZoom();
  writeFragment();
  refreshOverlay();
}

function syncSizeInputs() {
  $("width").value = state.width; $("height").value = state.height;
  $("mines").value = state.mines === null ? "" : state.mines;
  const key = `${state.width}x${state.height}x${state.mines}`;
  $("preset").value = ["9x9x10", "16x16x40", "30x16x99"].includes(key) ? key : "custom";
}

/** Put character ch (0-8, H, F, M) on cell i. */
export function setCell(i, ch) {
  if (state.grid[i] === ch) return;
  state.grid[i] = ch;
  writeFragment();
  refreshOverlay();
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
