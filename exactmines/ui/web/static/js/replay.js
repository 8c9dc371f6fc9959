/* Replay mode: a recorded game (.avf, .rmv, .evf, .mvf) judged by the server (/api/replay:
 * every click's exact chance of a mine and its class, and the board before each click),
 * stepped through click by click with the exact overlay as it was before each. */
import { api } from "./api.js";
import { buildBoard, fitZoom } from "./board.js";
import { $, clearError, readBase64, showError } from "./dom.js";
import { refreshOverlay } from "./overlay.js";
import { renderPanel } from "./panels.js";
import { state } from "./state.js";

/** The classes of a click that count as guesses. */
export const GUESSES = ["needless guess", "forced guess"];

async function judged(name, data) {
  return api("/api/replay", {
    name, data, trust_flags: $("trust-flags").checked,
    time_limit: state.timeLimit || undefined,  // none chosen here: the server's own
  });
}

/** Open a replay file chosen by the person: judged by the server, shown at its first click. */
export async function openReplay(file) {
  const data = await readBase64(file);
  $("busy").textContent = "judging the replay…";
  try {
    const answer = await judged(file.name, data);
    clearError();
    state.replay = { name: file.name, data, answer, step: 0 };
    layOut();
    await showStep(0);
  } catch (error) {
    showError(error.message);
  } finally {
    $("busy").textContent = "";
  }
}

/** The replay's board and panel, and the zoom that fits them side by side (the panel first:
 * its risk log, there at every step, may widen it). */
export function layOut() {
  const answer = state.replay.answer;
  state.width = answer.width; state.height = answer.height;
  buildBoard(answer.width, answer.height);
  renderPanel();
  fitZoom();
}

/** Judge the replay shown again (the flags trusted or not), at the same step. */
export async function judgeAgain() {
  const replay = state.replay;
  if (!replay) return;
  try {
    replay.answer = await judged(replay.name, replay.data);
    clearError();
    await showStep(replay.step);
  } catch (error) { showError(error.message); }
}

/** Show the board before event `step` (the end of the game after the last event). */
export function showStep(step) {
  const replay = state.replay;
  if (!replay) return Promise.resolve();
  const last = replay.answer.events.length;
  replay.step = Math.max(0, Math.min(last, step));
  $("replay-step").textContent = replay.step < last ? `event ${replay.step + 1} of ${last}`
    : `the end (${last} events)`;
  return refreshOverlay();
}

export const stepBy = (delta) => state.replay && showStep(state.replay.step + delta);
export const stepTo = (where) => state.replay && showStep(where === "end"
  ? state.replay.answer.events.length : 0);

/** The next guess after the step shown (the first one again after the last). */
export function nextGuess() {
  const replay = state.replay;
  if (!replay) return undefined;
  const events = replay.answer.events;
  const later = events.find((e) => e.index > replay.step && GUESSES.includes(e.class));
  const first = events.find((e) => GUESSES.includes(e.class));
  const target = later || first;
  return target ? showStep(target.index) : undefined;
}
