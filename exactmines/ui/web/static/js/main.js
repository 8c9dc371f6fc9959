/* exactmines page: a board editor, a game and a replay, with the exact overlay from the
 * server.
 *
 * Plain JavaScript modules, no library and no build step. The server does every piece of
 * Minesweeper reasoning (/api/overlay, /api/games/...); the page draws, edits and asks.
 * Exact values stay exact: probabilities are fraction strings, layout counts BigInts;
 * floats are used only to pick a colour and round a percentage.
 *
 * This module wires the rest together: modes, the link, keys and buttons, the start. */
import { api } from "./api.js";
import { buildBoard, cellAt, cellVisible, fitZoom, render, scrollToCell, zoomBy, zoomToFit } from "./board.js";
import { parseMineText } from "./boardcodec.js";
import { colourOf } from "./colours.js";
import { $, bigNumbers, clearError, el, readBase64, showError } from "./dom.js";
import { applyTool, download, mineText, newBoard, setCell, startEditing, undo } from "./editor.js";
import { decodeFragment } from "./fragment.js";
import "./jsmlink.js";
import { writeFragment } from "./link.js";
import "./menu.js";
import { showNoguess } from "./noguess.js";
import { refreshOverlay } from "./overlay.js";
import { hideTooltip, pickCell, renderPanel, showCellInfo, showTooltip } from "./panels.js";
import { click, flag, gameAction, isChord, newGame, setGame, stopAuto, toggleAuto } from "./play.js";
import { judgeAgain, layOut, nextGuess, openReplay, showStep, stepBy, stepTo } from "./replay.js";
import { MAX_CELLS, positionKey, state } from "./state.js";
import { offerTopologies } from "./shapes.js";
import { limitSides, takeLimits } from "./sides.js";

const boardEl = $("board");
const wrapEl = $("board-wrap");

// -- modes ------------------------------------------------------------------------------
function setMode(mode, start = true) {
  stopAuto();
  state.mode = mode;
  document.body.dataset.mode = mode;
  $("mode-edit").setAttribute("aria-pressed", String(mode === "edit"));
  $("mode-play").setAttribute("aria-pressed", String(mode === "play"));
  $("mode-replay").setAttribute("aria-pressed", String(mode === "replay"));
  limitSides();
  state.overlay = null; state.overlayKey = null; state.hintMove = null; state.hintNote = null;
  state.overlayError = null; state.picked = null;
  hideTooltip();
  if (!start) return;
  if (mode === "replay") {
    const r = state.replay;
    if (!r) { buildBoard(0, 0); renderPanel(); return; }  // nothing to show until a file
    layOut();
    showStep(r.step);
    return;
  }
  if (mode === "play") {
    if (state.game) { buildBoard(state.game.width, state.game.height, state.game.topology); fitZoom(); setGame(state.game); }
    else newGame();
  } else {
    if (state.grid.length !== state.width * state.height || state.grid.length === 0) {
      newBoard(9, 9, 10);
      return;
    }
    startEditing();
  }
}

/** Show a position given as .mine text (pasted or uploaded, checked by the server). */
function loadMineText(text) {
  const position = parseMineText(text, MAX_CELLS);
  if (position.error) { showError(position.error); return; }
  state.width = position.width; state.height = position.height;
  state.mines = position.mines; state.grid = position.grid; state.topology = position.topology;
  setMode("edit", false);
  startEditing();
}

/** Show what the URL fragment asks for; false when it asks for nothing. */
function readFragment() {
  const asked = decodeFragment(decodeURIComponent(location.hash.slice(1)), MAX_CELLS);
  if (asked === null) return false;
  if (asked.bad) {
    showError(`${asked.bad}: an empty 9x9 board instead`);
    newBoard(9, 9, 10);
    return true;
  }
  if (asked.play) {
    $("width").value = asked.width; $("height").value = asked.height; $("mines").value = asked.mines;
    $("rule").value = asked.rule; $("seed").value = asked.seed;
    showNoguess(asked.noguess, asked.noguessMethod);
    $("topology").value = asked.topology || "square";
    setMode("play", false);
    newGame();
    return true;
  }
  state.width = asked.width; state.height = asked.height; state.mines = asked.mines;
  state.topology = asked.topology || "square";
  state.grid = asked.rows.join("").split("");
  setMode("edit", false);
  startEditing();
  return true;
}

// -- input ------------------------------------------------------------------------------
/** The recommended cell (the hint's in a game, when one is shown), or null. */
function recommendedCell() {
  const move = state.mode === "play" && state.hintMove ? state.hintMove
    : state.overlay && state.overlayKey === positionKey() ? state.overlay.recommendation : null;
  return move ? move.row * state.width + move.col : null;
}

/** Scroll to the recommended cell and put the cursor there. */
function jumpToRecommended() {
  const i = recommendedCell();
  if (i === null) return;
  state.cursor = i;
  render();
  scrollToCell(i);
  showCellInfo(i);
}

function moveCursor(i) {
  state.cursor = i;
  render();
  scrollToCell(i, false);
  showCellInfo(i);
}

boardEl.addEventListener("click", (event) => {
  const i = cellAt(event);
  if (i === null) return;
  state.cursor = i;
  if (state.mode === "replay") { showCellInfo(i); render(); return; }
  if (state.mode === "edit") { applyTool(i, state.tool); showCellInfo(i); render(); return; }
  if ($("flag-mode").checked && !isChord(i)) flag(i); else click(i);
});
// The middle button chords, as in most Minesweepers (a left click on a number does too).
boardEl.addEventListener("auxclick", (event) => {
  const i = cellAt(event);
  if (i === null || event.button !== 1 || state.mode !== "play") return;
  event.preventDefault();
  if (isChord(i)) click(i);
});
boardEl.addEventListener("contextmenu", (event) => {
  const i = cellAt(event);
  if (i === null) return;
  event.preventDefault();
  if (state.mode === "edit") setCell(i, state.grid[i] === "F" ? "H" : "F");
  else if (state.mode === "play") flag(i);
});
// The cell under the pointer: its tooltip, and the Cell section of the panel.
boardEl.addEventListener("mousemove", (event) => {
  const i = cellAt(event);
  if (i === null) { hideTooltip(); return; }
  const before = state.hover ? state.hover.i : null;
  showTooltip(i, event.clientX, event.clientY);
  if (i !== before) showCellInfo(i);
});
boardEl.addEventListener("mouseleave", hideTooltip);
wrapEl.addEventListener("scroll", hideTooltip);

boardEl.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const width = state.width, height = state.height;
  let r = Math.floor(state.cursor / width), c = state.cursor % width;
  const jump = event.shiftKey ? 5 : 1;
  const moves = { ArrowUp: [-jump, 0], ArrowDown: [jump, 0], ArrowLeft: [0, -jump], ArrowRight: [0, jump] };
  if (moves[event.key]) {
    r = Math.max(0, Math.min(height - 1, r + moves[event.key][0]));
    c = Math.max(0, Math.min(width - 1, c + moves[event.key][1]));
    moveCursor(r * width + c);
    event.preventDefault();
    return;
  }
  if (event.key === "Home" || event.key === "End") {
    moveCursor(r * width + (event.key === "Home" ? 0 : width - 1));
    event.preventDefault();
    return;
  }
  const key = event.key.toLowerCase();
  const i = state.cursor;
  if (state.mode === "edit") {
    let ch = null;
    if (/^[0-8]$/.test(key)) ch = key;
    else if (key === "h" || key === " " || key === "backspace" || key === "delete") ch = "H";
    else if (key === "f") ch = state.grid[i] === "F" ? "H" : "F";
    else if (key === "m") ch = state.grid[i] === "M" ? "H" : "M";
    if (ch !== null) { setCell(i, ch); showCellInfo(i); event.preventDefault(); event.stopPropagation(); }
    return;
  }
  if (state.mode === "replay") return;  // the page's keys step through it
  if (key === "enter" || key === " ") { click(i); event.preventDefault(); event.stopPropagation(); }
  else if (key === "f") { flag(i); event.preventDefault(); event.stopPropagation(); }
});

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (target.closest && target.closest("input, textarea, select, dialog")) return;
  const key = event.key.toLowerCase();
  if ((event.ctrlKey || event.metaKey) && key === "z" && state.mode === "edit" && !event.altKey) {
    undo();
    event.preventDefault();
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const actions = {
    o: () => { $("overlay").checked = !$("overlay").checked; $("overlay").dispatchEvent(new Event("change")); },
    "+": () => zoomBy(1.25), "=": () => zoomBy(1.25), "-": () => zoomBy(0.8),
    z: () => zoomToFit(), r: () => jumpToRecommended(),
    n: () => (state.mode === "edit" ? $("new-board").click() : $("new-game").click()),
  };
  if (state.mode === "edit") Object.assign(actions, { p: () => $("paste").click(), u: () => undo() });
  else if (state.mode === "replay") {
    Object.assign(actions, { ",": () => stepBy(-1), ".": () => stepBy(1), g: () => nextGuess(),
      n: () => $("replay-file").click() });
  } else Object.assign(actions, { i: () => $("hint").click(), s: () => $("step").click(), a: () => $("auto").click() });
  if (actions[key]) { actions[key](); event.preventDefault(); }
});

// -- toolbar ----------------------------------------------------------------------------
$("mode-edit").addEventListener("click", () => setMode("edit"));
$("mode-play").addEventListener("click", () => setMode("play"));
$("mode-replay").addEventListener("click", () => setMode("replay"));
$("replay-file").addEventListener("change", async () => {
  const file = $("replay-file").files[0];
  if (!file) return;
  if (state.mode !== "replay") setMode("replay", false);
  await openReplay(file);
  $("replay-file").value = "";
});
$("trust-flags").addEventListener("change", () => judgeAgain());
$("replay-first").addEventListener("click", () => stepTo("start"));
$("replay-prev").addEventListener("click", () => stepBy(-1));
$("replay-next").addEventListener("click", () => stepBy(1));
$("replay-last").addEventListener("click", () => stepTo("end"));
$("replay-guess").addEventListener("click", () => nextGuess());
$("preset").addEventListener("change", () => {
  const value = $("preset").value;
  if (value === "custom") return;
  const [w, h, m] = value.split("x").map(Number);
  $("width").value = w; $("height").value = h; $("mines").value = m;
  if (state.mode === "edit") newBoard(w, h, m); else newGame();
});
$("topology").addEventListener("change", () => {
  // Another shape: a new empty board of it, or a new game on it.
  const minesText = $("mines").value.trim();
  if (state.mode === "edit") {
    newBoard(Number($("width").value), Number($("height").value), minesText === "" ? null : Number(minesText));
  } else newGame();
});
$("new-board").addEventListener("click", () => {
  const minesText = $("mines").value.trim();
  newBoard(Number($("width").value), Number($("height").value), minesText === "" ? null : Number(minesText));
});
$("mines").addEventListener("change", () => {
  if (state.mode !== "edit") return;
  const text = $("mines").value.trim();
  state.mines = text === "" ? null : Number(text);
  writeFragment();
  refreshOverlay();
});
$("new-game").addEventListener("click", () => newGame());
$("tools").addEventListener("click", (event) => {
  const button = event.target.closest("button[data-tool]");
  if (!button) return;
  state.tool = button.dataset.tool;
  for (const b of $("tools").querySelectorAll("button")) b.setAttribute("aria-pressed", String(b === button));
});
$("overlay").addEventListener("change", () => {
  state.overlayOn = $("overlay").checked;
  refreshOverlay();
});
$("backend").addEventListener("change", () => { state.overlayKey = null; refreshOverlay(); });
$("time-limit").addEventListener("change", () => {
  state.timeLimit = Number($("time-limit").value) || null;
  state.overlayKey = null;
  refreshOverlay();
});
$("zoom-in").addEventListener("click", () => zoomBy(1.25));
$("zoom-out").addEventListener("click", () => zoomBy(0.8));
$("zoom-fit").addEventListener("click", () => zoomToFit());
$("undo").addEventListener("click", () => undo());
$("step-delay").addEventListener("change", () => { state.stepDelay = Number($("step-delay").value); });
// The panel is redrawn often: its buttons (and a replay's rows) are handled here, once.
$("panel").addEventListener("click", (event) => {
  if (!event.target.closest) return;
  const button = event.target.closest("button");
  const row = event.target.closest("tr[data-step]");
  if (button && button.id === "jump") jumpToRecommended();
  else if (button && button.classList.contains("pick")) pickCell(Number(button.dataset.cell));
  else if (row) showStep(Number(row.dataset.step));
});
$("hint").addEventListener("click", () => gameAction("hint"));
$("step").addEventListener("click", () => gameAction("step"));
$("auto").addEventListener("click", () => toggleAuto());

$("paste").addEventListener("click", () => {
  $("paste-text").value = "";
  $("paste-dialog").showModal();
  $("paste-text").focus();
});
$("paste-dialog").addEventListener("close", async () => {
  if ($("paste-dialog").returnValue !== "load") return;
  const text = $("paste-text").value;
  try {
    const answer = await api("/api/import", { text });
    clearError();
    loadMineText(answer.text);
  } catch (error) { showError(error.message); }
});
$("upload").addEventListener("change", async () => {
  const file = $("upload").files[0];
  if (!file) return;
  const data = await readBase64(file);
  try {
    const answer = await api("/api/import", { name: file.name, data });
    clearError();
    loadMineText(answer.text);
  } catch (error) { showError(error.message); }
  $("upload").value = "";
});
$("download-mine").addEventListener("click", () => download("mine"));
$("download-mbf").addEventListener("click", () => download("mbf"));
$("play-board").addEventListener("click", async () => {
  const text = mineText();
  setMode("play", false);
  await newGame(text);
  if (!state.game) setMode("edit");
});
window.addEventListener("hashchange", () => readFragment());
window.addEventListener("resize", hideTooltip);

// -- start ------------------------------------------------------------------------------
async function start() {
  // The first overlay does not wait for the server's limits: until the time limit is
  // changed here, requests carry none and the server's own applies.
  const health = api("/api/health");
  // Without a link the empty 9x9 board is drawn at once (the square grid needs no word
  // from the server): drawn when the server's answer came, it replaced the size and mines
  // the player had typed meanwhile. The shapes the page offers are the server's: a link
  // to a board of one is read once they are in.
  const linked = location.hash.length > 1;
  if (!linked) newBoard(9, 9, 10, "square");
  await offerTopologies(health);
  if (linked && !readFragment()) newBoard(9, 9, 10);
  try {
    const limits = await health;
    const select = $("backend");
    const chosen = select.value;
    select.textContent = "";
    for (const name of limits.backends) select.append(el("option", { value: name }, name));
    select.value = limits.backends.includes(chosen) ? chosen : "auto";
    const limit = $("time-limit");
    if (limit.value === limit.defaultValue) limit.value = limits.time_limit;  // not one typed meanwhile
    $("time-limit").max = limits.max_time_limit;
    takeLimits(limits);
  } catch (error) { showError(`the server does not answer: ${error.message}`); }
}

window.exactmines = { state, colourOf, positionKey, cellVisible };  // for the console, and tests
bigNumbers(document.body);
start();
