// The page's board shapes (static/js/topology.js), against the server's neighbour tables
// written out for a few boards.
import assert from "node:assert/strict";
import test from "node:test";

import { readFileSync } from "node:fs";

import { neighbours, setTopologies, shapeOf, TOPOLOGIES } from "../../exactmines/ui/web/static/js/topology.js";

test("before the server's list, the square grid alone", () => {
  assert.deepEqual(TOPOLOGIES, ["square"]);
  assert.deepEqual(neighbours(0, 2, 2, "torus"), [1, 2, 3]);  // an unknown word: square
  assert.equal(shapeOf("hex").cell, "square");
});

// The server's list (/api/health's topologies), as tests/test_topology.py keeps it.
test("the server's list", () => {
  setTopologies(JSON.parse(readFileSync(new URL("./topologies.json", import.meta.url))));
  assert.deepEqual(TOPOLOGIES, ["square", "torus", "cylinder", "hex"]);
  assert.equal(shapeOf("hex").cell, "hex");
});

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

test("a cylinder wraps its columns, not its rows", () => {
  // 4x3: cell 0,0 touches 0,1 0,3 | 1,0 1,1 1,3; nothing above row 0.
  assert.deepEqual(neighbours(0, 4, 3, "cylinder"), [1, 3, 4, 5, 7]);
  // Cell 2,3 = 11 (bottom right) touches 1,0 1,2 1,3 | 2,0 2,2.
  assert.deepEqual(neighbours(11, 4, 3, "cylinder"), [4, 6, 7, 8, 10]);
});
