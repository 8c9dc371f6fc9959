// The page's board shapes (static/js/topology.js), against the server's neighbour tables
// written out for a few boards.
import assert from "node:assert/strict";
import test from "node:test";

import { neighbours } from "../../exactmines/ui/web/static/js/topology.js";

test("the square grid: up to 8 cells around, fewer at the edges", () => {
  assert.deepEqual(neighbours(4, 3, 3), [0, 1, 2, 3, 5, 6, 7, 8]);
  assert.deepEqual(neighbours(0, 3, 3, "square"), [1, 3, 4]);
});

test("a torus wraps around its edges, each cell once", () => {
  assert.deepEqual(neighbours(0, 4, 4, "torus"), [1, 3, 4, 5, 7, 12, 13, 15]);
  // A side of 2: the cell left and the cell right are the same one.
  assert.deepEqual(neighbours(0, 2, 2, "torus"), [1, 2, 3]);
});

test("hexagons in odd-r offset coordinates: 6 around, odd rows shifted right", () => {
  // 4 wide: row 1 (odd) cell 1,1 = 5 touches 0,1 0,2 | 1,0 1,2 | 2,1 2,2.
  assert.deepEqual(neighbours(5, 4, 3, "hex"), [1, 2, 4, 6, 9, 10]);
  // Row 2 (even) cell 2,1 = 9 touches 1,0 1,1 | 2,0 2,2 (no row 3).
  assert.deepEqual(neighbours(9, 4, 3, "hex"), [4, 5, 8, 10]);
});
