// Positions as .mine text (static/js/boardcodec.js).
import assert from "node:assert/strict";
import test from "node:test";

import { gridRows, mineText, parseMineText } from "../../exactmines/ui/web/static/js/boardcodec.js";

test("rows of a flat grid", () => {
  assert.deepEqual(gridRows([..."H1F0MH"], 3, 2), ["H1F", "0MH"]);
});

test(".mine text with and without the count", () => {
  assert.equal(mineText(3, 2, 1, ["H1F", "0MH"]), "3x2x1\nH1F\n0MH\n");
  assert.equal(mineText(2, 1, null, ["H1"]), "2x1\nH1\n");
});

test("text is read back, comments and trailing blanks skipped, ? as a mine", () => {
  const read = parseMineText("# a comment\n\n3x2x1  \r\nH1?\n0MH\n", 100);
  assert.deepEqual(read, { width: 3, height: 2, mines: 1, grid: [..."H1M0MH"] });
  assert.deepEqual(parseMineText(mineText(2, 1, null, ["H1"]), 100),
    { width: 2, height: 1, mines: null, grid: ["H", "1"] });
});

test("no header, or too many cells: one line saying so", () => {
  assert.equal(parseMineText("HHH\n", 100).error, "expected .mine text");
  assert.match(parseMineText("300x300x10\n", 40000).error, /^300x300: more than the 40000 cells/);
});
