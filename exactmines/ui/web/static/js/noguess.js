/* Play mode's no-guess boards: whether the next game is one, and how it is made (the
 * generator's methods: auto, build, rejection, chain). The board is dealt at the first
 * click, where the player clicks, as every game is; the method box is live only while the
 * no-guess box is ticked. */
import { $ } from "./dom.js";

/** The new-game request's no-guess fields. */
export function noguessRequest() {
  return { noguess: $("noguess").checked, noguess_method: $("noguess-method").value };
}

/** Show a game's (or a link's) no-guess settings in the toolbar. */
export function showNoguess(noguess, method) {
  $("noguess").checked = noguess;
  $("noguess-method").value = method || "auto";
  sync();
}

function sync() {
  $("noguess-method").disabled = !$("noguess").checked;
}

$("noguess").addEventListener("change", sync);
sync();
