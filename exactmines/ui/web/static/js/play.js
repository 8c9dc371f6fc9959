/* Play mode: a game held by the server, clicked, chorded and flagged here, the player's
 * moves (hint, step, auto-play at a chosen speed), and the game's clock. */
import { api } from "./api.js";
import { buildBoard, cellCount, fitZoom, render } from "./board.js";
import { $, clearError, showError } from "./dom.js";
import { writeFragment } from "./link.js";
import { noguessRequest } from "./noguess.js";
import { refreshOverlay } from "./overlay.js";
import { clockText, gameSeconds, hideTooltip, renderPanel, showCellInfo } from "./panels.js";
import { state } from "./state.js";
import { neighbours } from "./topology.js";

let gameQueue = Promise.resolve();

/** One game request at a time, in order: a click never overtakes the one before. */
function gameRequest(run) {
  const next = gameQueue.then(run, run);
  gameQueue = next.catch(() => undefined);
  return next;
}

// The clock ticks on the page between answers (the server keeps the game's own time).
setInterval(() => {
  const g = state.game;
  const timer = $("timer");
  if (g && timer && g.started && !g.over) timer.textContent = clockText(gameSeconds());
}, 100);

/** The game's fields as they stand (size, mines, shape, seed). */
const sizeFields = () => ["width", "height", "mines", "topology", "seed"].map((id) => $(id).value).join(" ");

/** Show a game as the server sent it; the size fields show its size unless `keepFields`
 * (the player typed another while it was dealt). */
export function setGame(game, keepFields = false) {
  const sized = !state.game || state.game.width !== game.width || state.game.height !== game.height
    || state.game.topology !== game.topology;
  state.game = game;
  state.clock = game.seconds === null ? null : { seconds: game.seconds, at: performance.now() };
  state.width = game.width; state.height = game.height;
  if (!game.fixed_board && !keepFields) {
    $("width").value = game.width; $("height").value = game.height; $("mines").value = game.mines;
    $("topology").value = game.topology;
    const key = `${game.width}x${game.height}x${game.mines}`;
    $("preset").value = ["9x9x10", "16x16x40", "30x16x99"].includes(key) ? key : "custom";
  }
  if (sized || cellCount() !== game.width * game.height) {
    if (buildBoard(game.width, game.height, game.topology)) { hideTooltip(); showCellInfo(null); }
    fitZoom();
  }
  writeFragment();
  render(); renderPanel();
  return refreshOverlay();
}

/** A new game with the toolbar's settings, or on a given board (.mine text). */
export async function newGame(board) {
  stopAuto();
  const seedText = $("seed").value.trim();
  const body = board ? { board, rule: "safe" } : {
    width: Number($("width").value), height: Number($("height").value),
    mines: Number($("mines").value), rule: $("rule").value,
    seed: seedText === "" ? null : Number(seedText), ...noguessRequest(),
    topology: $("topology").value,
  };
  if (seedText !== "" && !/^\d+$/.test(seedText)) { showError(`seed ${seedText}: a whole number, 0 or more`); return; }
  const asked = sizeFields();
  try {
    const game = await gameRequest(() => api("/api/games", body));
    clearError();
    state.hintMove = null; state.hintNote = null;
    state.game = null;
    // What the player typed while the game was dealt stays for the next New game (the
    // fields took the game's size back, and New game then dealt a size nobody asked for).
    const typed = !board && sizeFields() !== asked;
    if (!board && !typed) $("seed").value = String(game.seed);
    showCellInfo(null);
    await setGame(game, typed);
  } catch (error) { showError(error.message); }
}

/** POST the game action (reveal, chord, flag, hint, step) and show the game it leaves. */
export async function gameAction(action, body) {
  if (!state.game) return null;
  const id = state.game.id;
  try {
    const game = await gameRequest(() => api(`/api/games/${id}/${action}`, body || {}));
    clearError();
    state.hintMove = action === "hint" ? game.move : null;
    state.hintNote = action === "hint" && !game.move ? game.note : null;
    if (action === "step" || action === "hint") state.scrollToRec = true;
    await setGame(game);
    return game;
  } catch (error) { showError(error.message); stopAuto(); return null; }
}

const at = (i) => ({ row: Math.floor(i / state.width), col: i % state.width });
export const reveal = (i) => gameAction("reveal", at(i));
export const flag = (i) => gameAction("flag", at(i));

/** The cells around cell i, on the game's board. */
const around = (i) => neighbours(i, state.width, state.height, state.game.topology);

/** Whether a click on cell i is a chord: a revealed number with as many flags around it
 * as it says and a covered cell left to open. */
export function isChord(i) {
  const g = state.game;
  if (!g || g.over) return false;
  const cellAt = (k) => g.rows[Math.floor(k / state.width)][k % state.width];
  const ch = cellAt(i);
  if (!(ch >= "1" && ch <= "8")) return false;
  const near = around(i).map(cellAt);
  return near.filter((x) => x === "F").length === Number(ch) && near.includes("H");
}

/** A click in a game: a chord on a satisfied number, a reveal on a covered cell, nothing
 * on a revealed one. */
export function click(i) {
  const g = state.game;
  if (!g) return null;
  const ch = g.rows[Math.floor(i / state.width)][i % state.width];
  if (isChord(i)) return gameAction("chord", at(i));
  if (ch === "H" || !g.started) return reveal(i);
  return null;
}

export function stopAuto() {
  state.autoplay = false;
  $("auto").setAttribute("aria-pressed", "false");
  $("auto").textContent = "Auto-play";
}

/** Let the player play to the end, a step every `stepDelay` ms (or stop it). */
export async function toggleAuto() {
  if (state.autoplay) { stopAuto(); return; }
  if (!state.game) await newGame();
  state.autoplay = true;
  $("auto").setAttribute("aria-pressed", "true");
  $("auto").textContent = "Stop";
  while (state.autoplay && state.game && !state.game.over) {
    const game = await gameAction("step");
    if (!game || !game.move) break;
    await new Promise((done) => setTimeout(done, state.stepDelay));
  }
  stopAuto();
}
