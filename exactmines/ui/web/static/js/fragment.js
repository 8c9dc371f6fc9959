/* The URL fragment: the position drawn (or the settings of the game played), so that a
 * link reproduces what the page shows. Pure.
 *
 *   9x9x10:HHH212HHH/...      a position: WIDTHxHEIGHT[xMINES], then its rows joined by /
 *   play:9x9x10:safe:4        a game: size and mines, first-click rule, seed
 *   play:9x9x10:safe:4:noguess  ... on a certified no-guess board
 */

/** The fragment (without "#") of a position {width, height, mines (null: unknown), rows}
 * or a game {play: true, width, height, mines, rule, seed, noguess}. */
export function encodeFragment(spec) {
  if (spec.play) {
    const { width, height, mines, rule, seed, noguess } = spec;
    return `play:${width}x${height}x${mines}:${rule}:${seed}${noguess ? ":noguess" : ""}`;
  }
  const { width, height, mines, rows } = spec;
  return `${width}x${height}${mines === null ? "" : `x${mines}`}:${rows.join("/")}`;
}

/** What a fragment asks for: a game {play: true, ...}, a position {play: false, width,
 * height, mines, rows}, {bad: reason} for a position that does not match its size or has
 * more than maxCells cells, or null for anything else (no fragment, another text). */
export function decodeFragment(text, maxCells) {
  let m = /^play:(\d+)x(\d+)x(\d+):(safe|opening|unprotected):(\d+)(:noguess)?$/.exec(text);
  if (m) {
    return { play: true, width: Number(m[1]), height: Number(m[2]), mines: Number(m[3]),
      rule: m[4], seed: Number(m[5]), noguess: Boolean(m[6]) };
  }
  m = /^(\d+)x(\d+)(?:x(\d+))?:([0-8HFM/]*)$/.exec(text);
  if (!m) return null;
  const width = Number(m[1]), height = Number(m[2]);
  const rows = m[4].split("/");
  if (rows.length !== height || rows.some((row) => row.length !== width) || width * height > maxCells) {
    return { bad: "the link's position does not match its size, or is too large" };
  }
  return { play: false, width, height, mines: m[3] === undefined ? null : Number(m[3]), rows };
}
