/* The board: one element per cell, what each cell shows, and the zoom.
 *
 * Cells are laid out by the drawing function of the board's topology (DRAWERS): the square
 * grid is a CSS grid; another shape adds its own function, which places the same cell
 * elements (ids c0, c1, ... in the server's cell order) its own way. Everything else here
 * works on cell indices and does not depend on the shape. */
import { colourOf, luminance } from "./colours.js";
import { $ } from "./dom.js";
import { fractionFloat, percentLabel } from "./numbers.js";
import { overlayValid, replayEvent, rows, state } from "./state.js";

const boardEl = $("board");
let cells = [];
const shown = { cls: [], text: [], label: [], p: [] };

/** Per topology, how the cell elements are placed on `board` for a width x height board. */
export const DRAWERS = {
  square(board, width) {
    board.dataset.topology = "square";
    board.style.setProperty("--cols", String(width));
  },
};

/** The element of cell i. */
export const cellElement = (i) => cells[i];
export const cellCount = () => cells.length;

/** The cell index under an event's target, or null. */
export function cellIndex(target) {
  const cell = target.closest ? target.closest(".cell") : null;
  return cell && cell.dataset.i !== undefined ? Number(cell.dataset.i) : null;
}

/** Make the cell elements for a width x height board (kept when the size is the same). */
export function buildBoard(width, height, topology = "square") {
  if (cells.length === width * height && boardEl.style.getPropertyValue("--cols") === String(width)) return;
  boardEl.textContent = "";
  DRAWERS[topology](boardEl, width, height);
  const fragment = document.createDocumentFragment();
  cells = [];
  for (let i = 0; i < width * height; i++) {
    const div = document.createElement("div");
    div.className = "cell covered";
    div.setAttribute("role", "gridcell");
    div.id = `c${i}`;
    div.dataset.i = String(i);
    div.dataset.row = String(Math.floor(i / width));
    div.dataset.col = String(i % width);
    fragment.appendChild(div);
    cells.push(div);
  }
  boardEl.appendChild(fragment);
  shown.cls = new Array(width * height).fill("cell covered");
  shown.text = new Array(width * height).fill("");
  shown.label = new Array(width * height).fill("");
  shown.p = new Array(width * height).fill(null);
  state.cursor = Math.min(state.cursor, width * height - 1);
  boardEl.setAttribute("aria-activedescendant", `c${state.cursor}`);
  boardEl.setAttribute("aria-rowcount", String(height));
  boardEl.setAttribute("aria-colcount", String(width));
}

/** Cells as large as the room beside the panel allows (or the page's width when the panel
 * goes below the board); never below 18 px a cell, so numbers stay readable: a wider board
 * scrolls. */
export function fitZoom() {
  const main = document.querySelector("main");
  const column = getComputedStyle(main).flexDirection === "column";
  const room = Math.max(main.clientWidth - (column ? 0 : $("panel").offsetWidth + 16) - 18, 160);
  state.zoom = Math.max(18, Math.min(36, Math.floor(room / state.width) - 1));
  applyZoom();
}

export function applyZoom() {
  document.documentElement.style.setProperty("--cell", `${state.zoom}px`);
  boardEl.classList.toggle("small", state.zoom < 16);
}

export function zoomBy(factor) {
  state.zoom = Math.max(8, Math.min(64, Math.round(state.zoom * factor)));
  applyZoom();
}

/** What one cell shows: [class, text, words for screen readers, exact probability]. */
function look(i, ch) {
  const width = state.width;
  const where = `row ${Math.floor(i / width)}, col ${i % width}`;
  if (ch >= "0" && ch <= "8") {
    return ch === "0" ? ["cell zero", "", `${where}: 0`, null]
      : [`cell revealed n${ch}`, ch, `${where}: ${ch}`, null];
  }
  if (ch === "X") return ["cell exploded", "✸", `${where}: the mine clicked`, null];
  if (ch === "M" && state.mode !== "edit") return ["cell shown-mine", "✱", `${where}: mine`, null];
  const hidden = ch === "M" ? " hidden-mine" : "";
  const covered = ch === "F" ? "flag" : `covered${hidden}`;
  const base = ch === "F" ? "F" : "";
  if (!overlayValid() || (state.mode === "play" && state.game && state.game.over)) {
    return [`cell ${covered}`, base, `${where}: ${ch === "F" ? "flag" : "covered"}`, null];
  }
  const analysis = state.overlay.analysis;
  const info = state.cellInfo.get(i);
  if (ch === "F" && (state.mode === "edit" || !info)) {
    return ["cell flag", "F", `${where}: flag`, null];
  }
  const flagged = ch === "F" ? " (flagged)" : "";
  if (analysis.consistent === false || !info) {
    const why = analysis.consistent === false ? "position inconsistent" : "not analysed";
    return [`cell nc${hidden}`, "?", `${where}: covered, ${why}${flagged}`, null];
  }
  const p = info.p;
  if (info.verdict === "safe") return [`cell safe${hidden}`, "S", `${where}: certainly safe${flagged}`, p];
  if (info.verdict === "mine") return [`cell certain-mine${hidden}`, "M", `${where}: certain mine${flagged}`, p];
  if (p === null) {
    const why = analysis.probabilities_computed ? "no probability (total mine count unknown)"
      : "probability not computed within the time limit";
    return [`cell nc${hidden}`, "?", `${where}: ${why}${flagged}`, null];
  }
  return [`cell prob${hidden}`, percentLabel(p), `${where}: mine probability ${p.text}${flagged}`, p];
}

/** Bring every cell up to date with the state (only what changed is touched). */
export function render() {
  const rs = rows();
  const width = state.width;
  const rec = new Set();
  const faults = new Set();
  if (overlayValid()) {
    const move = state.overlay.recommendation;
    if (move && !(state.mode === "play" && state.game && state.game.over)) {
      for (const [r, c] of move.cells) rec.add(r * width + c);
    }
    if (state.overlay.fault) for (const [r, c] of state.overlay.fault.clues) faults.add(r * width + c);
  }
  if (state.hintMove && state.mode === "play") {
    for (const [r, c] of state.hintMove.cells) rec.add(r * width + c);
  }
  const clicked = new Set();  // replay: the cells the event shown clicks
  const event = state.mode === "replay" ? replayEvent() : null;
  if (event) for (const [r, c] of event.opens.length ? event.opens : [event.cell]) clicked.add(r * width + c);
  for (let r = 0; r < rs.length; r++) {
    const row = rs[r];
    for (let c = 0; c < row.length; c++) {
      const i = r * width + c;
      let [cls, text, label, p] = look(i, row[c]);
      if (rec.has(i)) cls += " rec";
      if (faults.has(i)) cls += " fault";
      if (clicked.has(i)) cls += " clicked";
      if (state.mode === "replay" && row[c] === "F" && !cls.startsWith("cell flag")) cls += " flagged";
      if (i === state.cursor) cls += " cursor";
      const el = cells[i];
      if (shown.cls[i] !== cls) { el.className = cls; shown.cls[i] = cls; }
      if (shown.text[i] !== text) { el.textContent = text; shown.text[i] = text; }
      if (shown.label[i] !== label) { el.setAttribute("aria-label", label); shown.label[i] = label; }
      const ptext = p ? p.text : null;
      if (shown.p[i] !== ptext) {
        if (ptext === null) {
          el.removeAttribute("data-p");
          el.style.removeProperty("background-color");
          el.style.removeProperty("color");
        } else {
          el.dataset.p = ptext;
        }
        shown.p[i] = ptext;
      }
      if (cls.startsWith("cell prob") && p) {
        const rgb = colourOf(fractionFloat(p));
        const css = `rgb(${rgb.map((v) => Math.round(v)).join(", ")})`;
        if (el.style.backgroundColor !== css) {
          el.style.backgroundColor = css;
          el.style.color = luminance(rgb) < 0.5 ? "white" : "black";
        }
      } else if (el.style.backgroundColor) {
        el.style.removeProperty("background-color");
        el.style.removeProperty("color");
      }
    }
  }
  boardEl.setAttribute("aria-activedescendant", `c${state.cursor}`);
}
