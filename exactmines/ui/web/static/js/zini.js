// The exact ZiNi of a won game in Play mode: the fewest clicks that clear its board
// (exactmines zini, solved by the server when the game ends), beside the player's clicks.
import { el } from "./dom.js";
import { plural } from "./words.js";

/** The "exact ZiNi" entry of the game panel, or null before a won game's end. */
export function ziniEntry(g) {
  const z = g.zini;
  if (!z) return null;
  const text = z.optimal
    ? `${z.clicks}: ${plural(g.click_count, "click")}, ${(100 * z.clicks / g.click_count).toFixed(0)}% of the fewest`
    : `between ${z.lower_bound} and ${z.clicks} (time limit reached): ${plural(g.click_count, "click")}`;
  const title = z.optimal
    ? `the fewest clicks that clear this board, proved; efficiency ZiNi / clicks = ${z.clicks}/${g.click_count}`
    : "no sequence is shorter than the lower bound; the upper one was found";
  return [z.optimal ? "exact ZiNi" : "ZiNi", el("span", { id: "zini", title }, text)];
}
