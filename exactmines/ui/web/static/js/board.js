/* The board: one element per cell, what each cell shows, scrolling and the zoom.
 *
 * Cells are laid out by the drawing function of the board's cell shape (DRAWERS, keyed by
 * the `cell` of the server's topology entry, topology.js): square cells are a CSS grid;
 * another cell shape adds its own function, which places the same cell elements (ids c0,
 * c1, ... in the server's cell order) its own way. Everything else here works on cell
 * indices and does not depend on the shape. */
import { colourOf, luminance } from "./colours.js";
import { $ } from "./dom.js";
import { fractionFloat, percentLabel } from "./numbers.js";
import { shapeOf } from "./topology.js";
import { flagsAreMarks, gameOver, overlayValid, replayEvent, rows, state } from "./state.js";

const boardEl = $("board");
const wrapEl = $("board-wrap");

/** Boards of up to this many cells get one element per cell (each a grid cell of the
 * page: hover, focus, screen readers); larger ones are painted on a canvas the size of the
 * frame, only the cells in view, so that a 300x300 board opens, scrolls and zooms out to an
 * overview at once. */
export const DOM_CELLS = 40000;

let cells = [];
let canvas = null;  // the canvas of a large board
let pending = 0;    // a repaint asked for the next frame
const shown = { cls: [], text: [], label: [], p: [] };

/** Per cell shape, how cells are placed: `layout` arranges the cell elements of a board of
 * width x height on `board` (square cells are a CSS grid; the board's data-topology,
 * data-cell and data-wrap attributes, set by buildBoard, style it), `box` gives the top left
 * corner of cell i in pixels for cells of `size` pixels with `gap` between them (where a
 * large board's canvas paints it), `cellStyle` (optional) the inline style of cell i's
 * element, and `paints` whether a large board may be painted on the canvas (which paints
 * square cells: a hex board keeps its elements). A new cell shape adds its entry here. */
const squareGrid = {
  layout(board, width) {
    board.style.setProperty("--cols", String(width));
  },
  box(i, width, size, gap) {
    return [gap + (i % width) * (size + gap), gap + Math.floor(i / width) * (size + gap)];
  },
  paints: true,
};

/** Hexagons (odd-r: odd rows shifted half a cell right), pointy-top, `size` across their
 * flat sides: rows step 0.866 of a pitch down (3/4 of a hexagon's height). */
const HEX_STEP = Math.sqrt(3) / 2;

export const DRAWERS = {
  square: squareGrid,
  hex: {
    layout(board, width, height) {
      board.style.setProperty("--cols", String(width));
      board.style.setProperty("--rows", String(height));
    },
    box(i, width, size, gap) {
      const r = Math.floor(i / width), c = i % width;
      return [gap + (c + (r % 2) / 2) * (size + gap), gap + r * HEX_STEP * (size + gap)];
    },
    cellStyle(i, width) {
      const r = Math.floor(i / width);
      return `--x:${(i % width) + (r % 2) / 2};--y:${r}`;
    },
    paints: false,
  },
};
const drawer = () => DRAWERS[shapeOf(boardEl.dataset.topology || "square").cell];

export const cellCount = () => (canvas ? state.width * state.height : cells.length);

const gap = () => (state.zoom < 6 ? 0 : 1);

/** The cell an event (a click, the pointer) is on, or null. */
export function cellAt(event) {
  if (!canvas) {
    const cell = event.target.closest ? event.target.closest(".cell") : null;
    return cell && cell.dataset.i !== undefined ? Number(cell.dataset.i) : null;
  }
  if (event.target !== canvas) return null;
  const box = boardEl.getBoundingClientRect();
  const pitch = state.zoom + gap();
  const c = Math.floor((event.clientX - box.left - gap()) / pitch);
  const r = Math.floor((event.clientY - box.top - gap()) / pitch);
  return r >= 0 && r < state.height && c >= 0 && c < state.width ? r * state.width + c : null;
}

/** Make the cells of a width x height board (kept when the size is the same). Returns
 * whether they were made anew. */
export function buildBoard(width, height, topology = "square") {
  const entry = shapeOf(topology);
  const shape = DRAWERS[entry.cell];
  const large = width * height > DOM_CELLS && shape.paints;
  const same = boardEl.dataset.size === `${width}x${height}` && boardEl.dataset.topology === topology;
  if (same) return false;
  boardEl.dataset.size = `${width}x${height}`;
  boardEl.dataset.topology = topology;
  boardEl.dataset.cell = entry.cell;
  boardEl.dataset.wrap = ["rows", "cols"].filter((_, k) => entry.wraps[k]).join(" ");
  shape.layout(boardEl, width, height);
  boardEl.classList.toggle("painted", large);
  shown.cls = []; shown.text = []; shown.label = []; shown.p = [];
  if (large) {
    cells = [];
    boardEl.innerHTML = '<canvas id="board-canvas" aria-hidden="true"></canvas>';
    canvas = boardEl.firstChild;
  } else {
    canvas = null;
    // One string parsed at once: far faster than an element made at a time.
    const parts = new Array(width * height);
    const styled = shape.cellStyle ? (i) => ` style="${shape.cellStyle(i, width)}"` : () => "";
    for (let i = 0; i < width * height; i++) {
      parts[i] = `<div class="cell covered" role="gridcell" id="c${i}" data-i="${i}" data-row="${Math.floor(i / width)}" data-col="${i % width}"${styled(i)}></div>`;
    }
    boardEl.innerHTML = parts.join("");
    cells = Array.from(boardEl.children);
    shown.cls = new Array(width * height).fill("cell covered");
    shown.text = new Array(width * height).fill("");
    shown.label = new Array(width * height).fill("");
    shown.p = new Array(width * height).fill(null);
  }
  state.cursor = Math.min(state.cursor, width * height - 1);
  boardEl.setAttribute("aria-activedescendant", large ? "" : `c${state.cursor}`);
  boardEl.setAttribute("aria-rowcount", String(height));
  boardEl.setAttribute("aria-colcount", String(width));
  return true;
}

/** Cells as large as the room beside the panel allows (or the page's width when the panel
 * goes below the board); never below 18 px a cell, so numbers stay readable: a wider board
 * scrolls (zoomToFit shows it whole). */
export function fitZoom() {
  const main = document.querySelector("main");
  const column = getComputedStyle(main).flexDirection === "column";
  const room = Math.max(main.clientWidth - (column ? 0 : $("panel").offsetWidth + 16) - 18, 160);
  state.zoom = Math.max(18, Math.min(36, Math.floor(room / state.width) - 1));
  applyZoom();
}

/** The whole board in its frame: cells as small as it takes (down to 1 px), an overview
 * of a large board. */
export function zoomToFit() {
  const frame = wrapEl.getBoundingClientRect();
  const wide = Math.min(frame.width, window.innerWidth) - 16;
  const tall = Math.max(window.innerHeight - Math.max(frame.top, 0) - 24, 200);
  const size = Math.floor(Math.min(wide / state.width, tall / state.height));
  state.zoom = Math.max(1, Math.min(36, size >= 7 ? size - 1 : size));
  applyZoom();
}

export function applyZoom() {
  document.documentElement.style.setProperty("--cell", `${state.zoom}px`);
  boardEl.classList.toggle("narrow", state.zoom < 24);
  boardEl.classList.toggle("small", state.zoom < 16);
  boardEl.classList.toggle("tiny", state.zoom < 6);
  if (canvas) {
    const g = gap(), pitch = state.zoom + g;
    boardEl.style.width = `${g + state.width * pitch}px`;
    boardEl.style.height = `${g + state.height * pitch}px`;
    paintSoon();
  }
}

export function zoomBy(factor) {
  state.zoom = Math.max(1, Math.min(64, Math.round(state.zoom * factor) || 1));
  applyZoom();
}

/** Cell i's box inside the board, in pixels: [left, top, size]. */
function cellBox(i) {
  if (!canvas) return [cells[i].offsetLeft, cells[i].offsetTop, cells[i].offsetWidth];
  const [x, y] = drawer().box(i, state.width, state.zoom, gap());
  return [x, y, state.zoom];
}

/** Whether cell i is wholly inside the board's frame. */
export function cellVisible(i) {
  if (i === null || i >= cellCount()) return false;
  const [x, y, size] = cellBox(i);
  const left = x - wrapEl.scrollLeft + boardEl.offsetLeft - wrapEl.clientLeft;
  const top = y - wrapEl.scrollTop + boardEl.offsetTop - wrapEl.clientTop;
  return left >= 0 && top >= 0 && left + size <= wrapEl.clientWidth && top + size <= wrapEl.clientHeight;
}

/** Scroll the board's frame to put cell i in its middle (`center`), or just into view,
 * and the frame into the page's view. */
export function scrollToCell(i, center = true) {
  if (i === null || i >= cellCount()) return;
  if (!center && cellVisible(i)) return;
  const [x, y, size] = cellBox(i);
  wrapEl.scrollLeft = x + boardEl.offsetLeft - (wrapEl.clientWidth - size) / 2;
  wrapEl.scrollTop = y + boardEl.offsetTop - (wrapEl.clientHeight - size) / 2;
  const frame = wrapEl.getBoundingClientRect();
  if (frame.top < 0 || frame.bottom > window.innerHeight) wrapEl.scrollIntoView({ block: "nearest" });
  paintSoon();
}

function paintSoon() {
  if (!canvas || pending) return;
  pending = requestAnimationFrame(() => { pending = 0; render(); });
}
wrapEl.addEventListener("scroll", paintSoon, { passive: true });
window.addEventListener("resize", paintSoon);

/** What one cell shows: [class, text, words for screen readers, exact probability];
 * `over`: the game is over; `valid`: the overlay held is the position's. */
function look(i, ch, over, valid) {
  const width = state.width;
  const where = `row ${Math.floor(i / width)}, col ${i % width}`;
  if (ch >= "0" && ch <= "8") {
    return ch === "0" ? ["cell zero", "", `${where}: 0`, null]
      : [`cell revealed n${ch}`, ch, `${where}: ${ch}`, null];
  }
  if (ch === "X") return ["cell exploded", "✸", `${where}: the mine clicked`, null];
  if (ch === "M" && state.mode !== "edit") return ["cell shown-mine", "✱", `${where}: mine`, null];
  const info = valid && !over ? state.cellInfo.get(i) : undefined;
  // A replay's untrusted flag is analysed as a covered cell and shows what the analysis
  // says of it, with the flag's corner (dressed below).
  if (ch === "F" && !(state.mode === "replay" && flagsAreMarks())) {
    // A flag is always drawn: in analysis a known mine, in a game the player's own mark
    // (the overlay does not trust it; the tooltip tells its probability).
    if (state.mode === "play" && info && info.verdict === "safe") {
      return ["cell flag flag-wrong", "F", `${where}: flagged, but certainly safe`, null];
    }
    const p = state.mode === "play" && info && info.p ? `, mine probability ${info.p.text}` : "";
    return ["cell flag", "F", `${where}: flag${p}`, null];
  }
  const hidden = ch === "M" ? " hidden-mine" : "";
  if (!valid || over) return [`cell covered${hidden}`, "", `${where}: covered`, null];
  const analysis = state.overlay.analysis;
  if (analysis.consistent === false || !info) {
    const why = analysis.consistent === false ? "position inconsistent" : "not analysed";
    return [`cell nc${hidden}`, "?", `${where}: covered, ${why}`, null];
  }
  const p = info.p;
  if (info.verdict === "safe") return [`cell safe${hidden}`, "S", `${where}: certainly safe`, p];
  if (info.verdict === "mine") return [`cell certain-mine${hidden}`, "M", `${where}: certain mine`, p];
  if (p === null) {
    const why = analysis.probabilities_computed ? "no probability (total mine count unknown)"
      : "probability not computed within the time limit";
    return [`cell nc${hidden}`, "?", `${where}: ${why}`, null];
  }
  return [`cell prob${hidden}`, percentLabel(p), `${where}: mine probability ${p.text}`, p];
}

/** What the overlay marks, by cell: recommended, at fault, dead, 50/50, or null; in a
 * replay the cells the event shown clicks. */
function markSets(over, valid) {
  const width = state.width;
  const rec = new Set();
  const faults = new Set();
  const clicked = new Set();
  const event = state.mode === "replay" ? replayEvent() : null;
  if (event) for (const [r, c] of event.opens.length ? event.opens : [event.cell]) clicked.add(r * width + c);
  if (valid) {
    const move = state.overlay.recommendation;
    if (move && !over) for (const [r, c] of move.cells) rec.add(r * width + c);
    if (state.overlay.fault) for (const [r, c] of state.overlay.fault.clues) faults.add(r * width + c);
  }
  if (state.hintMove && state.mode === "play") {
    for (const [r, c] of state.hintMove.cells) rec.add(r * width + c);
  }
  return { rec, faults, clicked, marks: valid && !over ? state.marks : null };
}

/** Cell i's look with the overlay's marks: [class, text, label, p]. */
function dressed(i, ch, over, valid, sets) {
  let [cls, text, label, p] = look(i, ch, over, valid);
  if (sets.rec.has(i)) cls += " rec";
  if (sets.faults.has(i)) cls += " fault";
  if (sets.clicked.has(i)) { cls += " clicked"; label += ", clicked by this event"; }
  if (ch === "F" && !cls.startsWith("cell flag")) { cls += " flagged"; label += ", flagged by the player"; }
  const marks = sets.marks;
  if (marks) {
    if (marks.dead.has(i)) { cls += " dead"; label += ", dead: opening it tells nothing"; }
    if (marks.fifty.has(i)) { cls += " fifty"; label += ", in a 50/50 no click can resolve"; }
  }
  if (i === state.picked) cls += " picked";
  if (i === state.cursor) cls += " cursor";
  return [cls, text, label, p];
}

/** Bring every cell up to date with the state (only what changed is touched; on a large
 * board, the cells in view are painted). */
export function render() {
  const over = gameOver();
  const valid = overlayValid();  // once: it compares the whole position
  const sets = markSets(over, valid);
  if (canvas) { paint(over, valid, sets); return; }
  const rs = rows();
  const width = state.width;
  for (let r = 0; r < rs.length; r++) {
    const row = rs[r];
    for (let c = 0; c < row.length; c++) {
      const i = r * width + c;
      const [cls, text, label, p] = dressed(i, row[c], over, valid, sets);
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

// A painted cell's colours: those of style.css for the same classes.
const FILL = { covered: "#a9b4c2", revealed: "#d4d4d4", zero: "#f0f0f0", flag: "#6a3d9a",
  safe: "#1a9641", "certain-mine": "#000000", nc: "#8c8c8c", "shown-mine": "#444444",
  exploded: "#dd0000" };
const INK = { n1: "#0000ff", n2: "#007b00", n3: "#ff0000", n4: "#00007b", n5: "#7b0000",
  n6: "#007b7b", n7: "#000000", n8: "#7b7b7b" };

/** Paint the cells in view of a large board on its canvas (the frame's size). */
function paint(over, valid, sets) {
  const dpr = window.devicePixelRatio || 1;
  const g = gap(), size = state.zoom, pitch = size + g;
  const w = Math.min(wrapEl.clientWidth, boardEl.offsetWidth);
  const h = Math.min(wrapEl.clientHeight, boardEl.offsetHeight);
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
    canvas.style.width = `${w}px`; canvas.style.height = `${h}px`;
  }
  // The part of the board in view (the board's box is in the frame, after its padding).
  const left = Math.min(Math.max(wrapEl.scrollLeft - boardEl.offsetLeft, 0), boardEl.offsetWidth - w);
  const top = Math.min(Math.max(wrapEl.scrollTop - boardEl.offsetTop, 0), boardEl.offsetHeight - h);
  canvas.style.left = `${left}px`; canvas.style.top = `${top}px`;
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = "#dddddd";
  ctx.fillRect(0, 0, w, h);
  const c0 = Math.max(Math.floor(left / pitch), 0), c1 = Math.min(Math.ceil((left + w) / pitch), state.width);
  const r0 = Math.max(Math.floor(top / pitch), 0), r1 = Math.min(Math.ceil((top + h) / pitch), state.height);
  const rs = rows();
  const font = Math.round(size * 0.55);
  ctx.textAlign = "center"; ctx.textBaseline = "middle";
  for (let r = r0; r < r1; r++) {
    const row = rs[r] || "";
    for (let c = c0; c < c1; c++) {
      const i = r * state.width + c;
      const [cls, text, , p] = dressed(i, row[c], over, valid, sets);
      const kinds = cls.split(" ");
      const x = g + c * pitch - left, y = g + r * pitch - top;
      let fill = FILL[kinds[1]] || FILL.covered, ink = "#1d1d1f";
      if (kinds[1] === "prob" && p) {
        const rgb = colourOf(fractionFloat(p));
        fill = `rgb(${rgb.map(Math.round).join(",")})`;
        ink = luminance(rgb) < 0.5 ? "#ffffff" : "#000000";
      } else if (kinds[1] === "revealed") {
        ink = INK[kinds[2]] || ink;
      } else if (["flag", "safe", "certain-mine", "nc", "shown-mine", "exploded"].includes(kinds[1])) {
        ink = "#ffffff";
      }
      ctx.fillStyle = fill;
      ctx.fillRect(x, y, size, size);
      if (text && size >= 12) {
        ctx.fillStyle = ink;
        ctx.font = `${kinds[1] === "prob" ? 400 : 700} ${kinds[1] === "prob" ? Math.round(size * 0.42) : font}px system-ui, sans-serif`;
        ctx.fillText(text, x + size / 2, y + size / 2 + 1);
      }
      if (kinds.length > 2) paintMarks(ctx, kinds, x, y, size);
    }
  }
}

/** The overlay's marks on a painted cell, as style.css draws them on an element. */
function paintMarks(ctx, kinds, x, y, size) {
  const frame = (colour, width, dash) => {
    ctx.strokeStyle = colour; ctx.lineWidth = Math.min(width, Math.max(size / 4, 1));
    ctx.setLineDash(dash || []);
    const inset = ctx.lineWidth / 2;
    ctx.strokeRect(x + inset, y + inset, size - 2 * inset, size - 2 * inset);
    ctx.setLineDash([]);
  };
  if (kinds.includes("hidden-mine") && size >= 8) {
    ctx.fillStyle = "#cc0000";
    ctx.beginPath(); ctx.arc(x + size * 0.78, y + size * 0.22, size * 0.12, 0, 2 * Math.PI); ctx.fill();
  }
  if (kinds.includes("dead")) {
    ctx.save(); ctx.beginPath(); ctx.rect(x, y, size, size); ctx.clip();
    ctx.strokeStyle = "rgba(40,40,40,0.45)"; ctx.lineWidth = Math.max(size / 12, 1);
    for (let d = -size; d < size; d += Math.max(size / 4, 3)) {
      ctx.beginPath(); ctx.moveTo(x + d, y + size); ctx.lineTo(x + d + size, y); ctx.stroke();
    }
    ctx.restore();
  }
  if (kinds.includes("fifty")) {
    frame("#ff7f00", 2);
    if (size >= 12) {
      ctx.fillStyle = "#b35900"; ctx.font = `700 ${Math.round(size * 0.36)}px system-ui, sans-serif`;
      ctx.textAlign = "left"; ctx.textBaseline = "top";
      ctx.fillText("½", x + 1, y);
      ctx.textAlign = "center"; ctx.textBaseline = "middle";
    }
  }
  if (kinds.includes("flagged")) {  // the corner style.css draws on a replay's flag
    ctx.fillStyle = FILL.flag;
    ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x + size * 0.35, y); ctx.lineTo(x, y + size * 0.35); ctx.fill();
  }
  if (kinds.includes("flag-wrong")) frame("#ff3b3b", 3);
  if (kinds.includes("fault")) frame("#ff00aa", 3);
  if (kinds.includes("rec")) frame("#00b3ff", 3);
  if (kinds.includes("clicked")) frame("#1f4fff", 3);
  if (kinds.includes("picked")) frame("#e6007e", 3, [3, 2]);
  if (kinds.includes("cursor") && document.activeElement === boardEl) frame("#f5a623", 3);
}
