// Counts in words as the page prints them (static/js/words.js), as exactmines/words.py does.
import assert from "node:assert/strict";
import test from "node:test";

import { plural } from "../../exactmines/ui/web/static/js/words.js";

test("one of a thing is singular, any other count plural", () => {
  assert.deepEqual([0, 1, 2].map((n) => plural(n, "mine")), ["0 mines", "1 mine", "2 mines"]);
  assert.equal(plural(1, "box", "boxes"), "1 box");
  assert.equal(plural(3, "box", "boxes"), "3 boxes");
});
