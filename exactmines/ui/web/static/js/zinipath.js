/* Replay mode: the fewest clicks that clear the board (exactmines zini), each numbered on
 * its cell and marked by its kind, beside the player's clicks, on request ("show the
 * fewest clicks"). The sequence comes with the replay's efficiency, which the server
 * computes when asked (/api/replay with efficiency: true): asked for once, when the toggle
 * is first turned on for a won game. Numbers are data-zini attributes of the cells (the
 * board's own rendering never touches them), drawn by style.css. */
import { api } from "./api.js";
import { $, clearError, el, entries, showError } from "./dom.js";
import { state } from "./state.js";

export const KINDS = { left: "left click", flag: "flag", chord: "chord" };
let wanted = false;  // the toggle, kept from one replay to the next
let marked = [];     // the cells carrying numbers

function clearMarks() {
  for (const cell of marked) { delete cell.dataset.zini; delete cell.dataset.ziniKind; }
  marked = [];
}

/** Number each click of `sequence` ([kind, row, col]) on its cell; a cell clicked twice
 * (opened, then chorded) shows both numbers, the later click's kind colouring it. */
function mark(sequence) {
  const width = state.width;
  sequence.forEach(([kind, r, c], k) => {
    const cell = document.getElementById(`c${r * width + c}`);
    if (!cell) return;  // a large board's canvas: no cell elements
    cell.dataset.zini = cell.dataset.zini ? `${cell.dataset.zini}·${k + 1}` : String(k + 1);
    cell.dataset.ziniKind = kind;
    marked.push(cell);
  });
}

async function toggle(on, redraw) {
  wanted = on;
  const replay = state.replay;
  if (on && replay && !replay.answer.efficiency) {
    $("busy").textContent = "finding the fewest clicks…";
    try {
      replay.answer = await api("/api/replay", {
        name: replay.name, data: replay.data, trust_flags: $("trust-flags").checked,
        time_limit: state.timeLimit || undefined, efficiency: true,
      });
      clearError();
    } catch (error) {
      showError(error.message);
    } finally {
      $("busy").textContent = "";
    }
  }
  redraw();
}

/** The Replay panel's section for a won game: the toggle and, when on, the counts and the
 * legend; the numbers put on the board (or taken off). Null for a lost game. `redraw`
 * draws the panel again once the toggle has changed (the panel's own function, handed in
 * so that this module needs nothing from the panel's). */
export function ziniPathSection(redraw) {
  clearMarks();
  const replay = state.replay;
  if (!replay || !replay.answer.won) return null;
  const input = el("input", { type: "checkbox", id: "zini-path-toggle" });
  input.checked = wanted;
  input.addEventListener("change", () => toggle(input.checked, redraw));
  const box = el("section", { id: "zini-path" },
    el("label", null, input, " show the fewest clicks"));
  const e = replay.answer.efficiency;
  if (!wanted || !e) return box;
  mark(e.sequence);
  const fewest = e.zini_optimal ? `${e.zini} (exact ZiNi, proved)`
    : `${e.zini} found, at least ${e.zini_lower_bound}`;
  box.append(entries([
    ["clicks", el("span", { id: "zini-path-counts" }, `the player ${e.clicks}, the fewest ${fewest}`)],
    ["marks", el("span", { id: "zini-path-legend" }, ...Object.entries(KINDS).map(([kind, name]) =>
      el("span", { class: "zini-key", "data-zini-kind": kind }, name)))],
  ]));
  return box;
}
