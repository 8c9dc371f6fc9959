/* The board shapes the page draws and plays: which cells a number counts, how a cell is
 * drawn, which edges wrap. Pure.
 *
 * The list comes from the server (/api/health's `topologies`, made from
 * exactmines/topology.py's SHAPES, where a new topology is added): each entry has its
 * `word` (a .mine header's), a `title` for the menu, `cell` (how board.js's DRAWERS lay a
 * cell out: "square" or "hex"), `wraps` ([rows, columns]: whether row height-1 touches row
 * 0, column width-1 column 0) and `steps` (the (row, column) offsets of the neighbours of a
 * cell of an even row and of an odd one). Until it has come, the page knows the square grid
 * alone (the shape a board without a topology word has). */

const SQUARE_STEPS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
const SQUARE = { word: "square", title: "square", cell: "square", wraps: [false, false],
  steps: [SQUARE_STEPS, SQUARE_STEPS] };

let shapes = { square: SQUARE };

/** The words of the topologies the page draws, in menu order (kept as one array, changed
 * in place by setTopologies). */
export const TOPOLOGIES = ["square"];

/** Take the server's list of topologies (/api/health's `topologies`). */
export function setTopologies(list) {
  shapes = {};
  TOPOLOGIES.length = 0;
  for (const shape of list) {
    shapes[shape.word] = shape;
    TOPOLOGIES.push(shape.word);
  }
}

/** The entry of topology `word` (the square grid's for a word the page does not know). */
export const shapeOf = (word) => shapes[word] || shapes.square || SQUARE;

/** The cells a number on cell i counts, as cell indices (row-major, each once, never i). */
export function neighbours(i, width, height, topology = "square") {
  const r = Math.floor(i / width), c = i % width;
  const { steps, wraps: [wrapRows, wrapCols] } = shapeOf(topology);
  const out = new Set();
  for (const [dr, dc] of steps[r % 2]) {
    let rr = r + dr, cc = c + dc;
    if (wrapRows) rr = (rr % height + height) % height;
    if (wrapCols) cc = (cc % width + width) % width;
    if (rr < 0 || rr >= height || cc < 0 || cc >= width) continue;
    const k = rr * width + cc;
    if (k !== i) out.add(k);
  }
  return [...out].sort((a, b) => a - b);
}
