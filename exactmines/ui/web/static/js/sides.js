/* The W and H fields stop at the largest side the server takes for what the mode makes
 * (/api/health): a game's board (max_side) or a position to analyse (max_position_side),
 * so that the form never offers a size the server then refuses. */
import { $ } from "./dom.js";

let limits = null;  // /api/health's answer, once in

/** Keep the server's limits (its /api/health answer) and apply them to the fields. */
export function takeLimits(health) {
  limits = health;
  limitSides();
}

/** Set the fields' largest value for the mode shown (nothing before the server answers:
 * the page's own bound stays). */
export function limitSides() {
  if (!limits) return;
  const side = document.body.dataset.mode === "play" ? limits.max_side : limits.max_position_side;
  for (const id of ["width", "height"]) $(id).max = String(side);
}
