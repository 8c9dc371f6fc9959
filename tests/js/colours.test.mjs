// The colour scale matches matplotlib's YlOrRd table (static/js/colours.js).
import assert from "node:assert/strict";
import test from "node:test";

import { YLORRD, colourOf, luminance } from "../../exactmines/ui/web/static/js/colours.js";

test("the ends of the scale are the first and last stops", () => {
  assert.deepEqual(colourOf(0), YLORRD[0]);
  assert.deepEqual(colourOf(1), YLORRD[YLORRD.length - 1]);
});

test("a probability is looked up in a 256-entry table, linear between stops", () => {
  // Entry 128 of 256 sits at 128/255 of the way: between stops 4 and 5.
  const x = (128 / 255) * 8;
  const f = x - 4;
  const want = [0, 1, 2].map((j) => YLORRD[4][j] * (1 - f) + YLORRD[5][j] * f);
  assert.deepEqual(colourOf(0.5), want);
  assert.deepEqual(colourOf(0.5), colourOf(0.501)); // the same table entry
});

test("dark colours take white text", () => {
  assert.ok(luminance(colourOf(0)) > 0.5);
  assert.ok(luminance(colourOf(1)) < 0.5);
});
