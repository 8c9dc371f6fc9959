/* The URL fragment: the position drawn (or the settings of the game played), so that a
 * link reproduces what the page shows. Pure.
 *
 *   9x9x10:HHH212HHH/...      a position: WIDTHxHEIGHT[xMINES], then its rows joined by /
 *   play:9x9x10:safe:4        a game: size and mines, first-click rule, seed
 *   play:9x9x10:safe:4:noguess  ... on a certified no-guess board (made by auto)
 *   play:9x9x10:safe:4:noguess-build  ... made by another method (build, rejection, chain)
 *   9x9x10@hex:...  play:9x9x10@torus:...  the board's topology after its size (none: square)
 */
import { TOPOLOGIES } from "./topology.js";

/** The fragment (without "#") of a position {width, height, mines (null: unknown), rows}
 * or a game {play: true, width, height, mines, rule, seed, noguess, noguessMethod (none:
 * auto)}; either may have a
 * `topology` other than "square". */
export function encodeFragment(spec) {
  const shape = spec.topology && spec.topology !== "square" ? `@${spec.topology}` : "";
  if (spec.play) {
    const { width, height, mines, rule, seed, noguess, noguessMethod } = spec;
    const method = noguessMethod && noguessMethod !== "auto" ? `-${noguessMethod}` : "";
    return `play:${width}x${height}x${mines}${shape}:${rule}:${seed}${noguess ? `:noguess${method}` : ""}`;
  }
  const { width, height, mines, rows } = spec;
  return `${width}x${height}${mines === null ? "" : `x${mines}`}${shape}:${rows.join("/")}`;
}

/** The spec `out` with the topology of a matched "@word" (none: the square grid), or
 * {bad: reason} for a word the page does not draw (TOPOLOGIES, the server's). */
function shaped(out, word) {
  if (word === undefined) return out;
  if (!TOPOLOGIES.includes(word)) return { bad: `the link's board is a ${word} board, which this page does not draw` };
  out.topology = word;
  return out;
}

/** What a fragment asks for: a game {play: true, ...}, a position {play: false, width,
 * height, mines, rows}, {bad: reason} for a position that does not match its size or has
 * more than maxCells cells, or null for anything else (no fragment, another text). */
export function decodeFragment(text, maxCells) {
  let m = /^play:(\d+)x(\d+)x(\d+)(?:@([a-z]+))?:(safe|opening|unprotected):(\d+)(:noguess(?:-(build|rejection|chain))?)?$/.exec(text);
  if (m) {
    const game = { play: true, width: Number(m[1]), height: Number(m[2]), mines: Number(m[3]),
      rule: m[5], seed: Number(m[6]), noguess: Boolean(m[7]) };
    if (m[8]) game.noguessMethod = m[8];
    return shaped(game, m[4]);
  }
  m = /^(\d+)x(\d+)(?:x(\d+))?(?:@([a-z]+))?:([0-8HFM/]*)$/.exec(text);
  if (!m) return null;
  const width = Number(m[1]), height = Number(m[2]);
  const rows = m[5].split("/");
  if (rows.length !== height || rows.some((row) => row.length !== width) || width * height > maxCells) {
    return { bad: "the link's position does not match its size, or is too large" };
  }
  return shaped({ play: false, width, height, mines: m[3] === undefined ? null : Number(m[3]), rows }, m[4]);
}
