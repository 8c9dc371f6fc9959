/* Play mode: a game held by the server, clicked and flagged here, and the player's moves. */
import { api } from "./api.js";
import { buildBoard, cellCount, fitZoom, render } from "./board.js";
import { $, clearError, showError } from "./dom.js";
import { writeFragment } from "./link.js";
import { refreshOverlay } from "./overlay.js";
import { renderPanel } from "./panels.js";
import { state } from "./state.js";

let gameQueue = Promise.resolve();

/** One game request at a time, in order: a click never overtakes the one before. */
function gameRequest(run) {
  const next = gameQueue.then(run, run);
  gameQueue = next.catch(() => undefined);
  return next;
}

/** Show a game as the server sent it. */
export function setGame(game) {
  const sized = !state.game || state.game.width !== game.width || state.game.height !== game.height;
  state.game = game;
  state.width = game.width; state.height = game.height;
  if (!game.fixed_board) {
    $("width").value = game.width; $("height").value = game.height; $("mines").value = game.mines;
    const key = `${game.width}x${game.height}x${game.mines}`;
    $("preset").value = ["9x9x10", "16x16x40", "30x16x99"].includes(key) ? key : "custom";
  }
  if (sized || cellCount() !== game.width * game.height) { buildBoard(game.width, game.height); fitZoom(); }
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
    seed: seedText === "" ? null : Number(seedText), noguess: $("noguess").checked,
  };
  if (seedText !== "" && !/^\d+$/.test(seedText)) { showError(`seed ${seedText}: a whole number, 0 or more`); return; }
  try {
    const game = await gameRequest(() => api("/api/games", body));
    clearError();
    state.hintMove = null;
    state.game = null;
    if (!board) $("seed").value = String(game.seed);
    await setGame(game);
  } catch (error) { showError(error.message); }
}

/** POST the game action (reveal, flag, hint, step) and show the game it leaves. */
export async function gameAction(action, body) {
  if (!state.game) return null;
  const id = state.game.id;
  try {
    const game = await gameRequest(() => api(`/api/games/${id}/${action}`, body || {}));
    clearError();
    state.hintMove = action === "hint" ? game.move : null;
    await setGame(game);
    return game;
  } catch (error) { showError(error.message); stopAuto(); return null; }
}

export const reveal = (i) => gameAction("reveal", { row: Math.floor(i / state.width), col: i % state.width });
export const flag = (i) => gameAction("flag", { row: Math.floor(i / state.width), col: i % state.width });

export function stopAuto() {
  state.autoplay = false;
  $("auto").setAttribute("aria-pressed", "false");
  $("auto").textContent = "Auto-play";
}

/** Let the player play to the end (or stop it). */
export async function toggleAuto() {
  if (state.autoplay) { stopAuto(); return; }
  if (!state.game) await newGame();
  state.autoplay = true;
  $("auto").setAttribute("aria-pressed", "true");
  $("auto").textContent = "Stop";
  while (state.autoplay && state.game && !state.game.over) {
    const game = await gameAction("step");
    if (!game) break;
    await new Promise((done) => setTimeout(done, 0));
  }
  stopAuto();
}
