/* The board shapes the page draws and plays: which cells a number counts. Pure.
 *
 * The server's topologies of the same words (exactmines/topology.py, docs/contract.md):
 *   square  the 8 cells around;
 *   torus   the same, wrapping around the edges (row height-1 touches row 0);
 *   hex     6 hexagons in odd-r offset coordinates (pointy-top, odd rows shifted half a
 *           cell right): in the rows above and below, columns c-1, c of an even row and
 *           c, c+1 of an odd one. */

/** The topologies the page draws (the words of a .mine header). */
export const TOPOLOGIES = ["square", "torus", "hex"];

const KING = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
const HEX_EVEN = [[-1, -1], [-1, 0], [0, -1], [0, 1], [1, -1], [1, 0]];
const HEX_ODD = [[-1, 0], [-1, 1], [0, -1], [0, 1], [1, 0], [1, 1]];

/** The cells a number on cell i counts, as cell indices (row-major, each once, never i). */
export function neighbours(i, width, height, topology = "square") {
  const r = Math.floor(i / width), c = i % width;
  const steps = topology === "hex" ? (r % 2 ? HEX_ODD : HEX_EVEN) : KING;
  const wrap = topology === "torus";
  const out = new Set();
  for (const [dr, dc] of steps) {
    let rr = r + dr, cc = c + dc;
    if (wrap) { rr = (rr + height) % height; cc = (cc + width) % width; }
    if (rr < 0 || rr >= height || cc < 0 || cc >= width) continue;
    const k = rr * width + cc;
    if (k !== i) out.add(k);
  }
  return [...out].sort((a, b) => a - b);
}
