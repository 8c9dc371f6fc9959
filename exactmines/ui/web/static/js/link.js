/* The page's URL follows what it shows (see fragment.js for the form). */
import { encodeFragment } from "./fragment.js";
import { rows, state } from "./state.js";

/** Put the position drawn (or the game's settings) in the URL fragment, without a new
 * history entry. A game on a given board has no link (the board is the server's). */
export function writeFragment() {
  if (state.mode === "replay") return;  // a replay is a file: no link holds it
  let fragment;
  if (state.mode === "play") {
    const g = state.game;
    if (!g || g.fixed_board) return;
    fragment = encodeFragment({ play: true, width: g.width, height: g.height, mines: g.mines,
      rule: g.rule, seed: g.seed, noguess: g.noguess, noguessMethod: g.noguess_method,
      topology: g.topology });
  } else {
    fragment = encodeFragment({ width: state.width, height: state.height, mines: state.mines, rows: rows(),
      topology: state.topology });
  }
  if (location.hash.slice(1) !== fragment) history.replaceState(null, "", `#${fragment}`);
}
