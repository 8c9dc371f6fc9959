// Positions as .mine text (static/js/boardcodec.js).
import assert from "node:assert/strict";
import test from "node:test";

import { readFileSync } from "node:fs";

import { gridRows, mineText, parseMineText } from "../../exactmines/ui/web/static/js/boardcodec.js";
import { setTopologies } from "../../exactmines/ui/web/static/js/topology.js";

// The server's list (/api/health's topologies), as tests/test_topology.py keeps it.
setTopologies(JSON.parse(readFileSync(new URL("./topologies.json", import.meta.url))));

test("rows of a flat grid", () => {
  assert.deepEqual(gridRows([..."H1F0MH"], 3, 2), ["H1F", "0MH"]);
});

test(".mine text with and without the count", () => {
  assert.equal(mineText(3, 2, 1, ["H1F", "0MH"]), "3x2x1\nH1F\n0MH\n");
  assert.equal(mineText(2, 1, null, ["H1"]), "2x1\nH1\n");
});

test("text is read back, comments and trailing blanks skipped, ? as a mine", () => {
  const read = parseMineText("# a comment\n\n3x2x1  \r\nH1?\n0MH\n", 100);
  assert.deepEqual(read, { width: 3, height: 2, mines: 1, grid: [..."H1M0MH"], topology: "square" });
  assert.deepEqual(parseMineText(mineText(2, 1, null, ["H1"]), 100),
    { width: 2, height: 1, mines: null, grid: ["H", "1"], topology: "square" });
});

test("no header, or too many cells: one line saying so", () => {
  assert.equal(parseMineText("HHH\n", 100).error, "expected .mine text");
  assert.match(parseMineText("300x300x10\n", 40000).error, /^300x300: more than the 40000 cells/);
});

test("a topology's word follows the header's numbers, both ways", () => {
  assert.equal(mineText(2, 1, 1, ["H1"], "hex"), "2x1x1 hex\nH1\n");
  assert.equal(mineText(2, 1, null, ["H1"], "square"), "2x1\nH1\n");
  const read = parseMineText("2x1x1 torus\nH1\n", 100);
  assert.equal(read.topology, "torus");
  assert.deepEqual(read.grid, ["H", "1"]);
  assert.equal(parseMineText("2x1x1\nH1\n", 100).topology, "square");
  assert.match(parseMineText("2x2x2x1 cube\nHH\nH1\n\nHH\nHH\n", 100).error || "", /expected|draws/);
  assert.match(parseMineText("3x1 knight\nHHH\n", 100).error, /this page draws square, torus, cylinder, hex/);
});
