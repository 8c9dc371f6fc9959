// The URL fragment codec (static/js/fragment.js).
import assert from "node:assert/strict";
import test from "node:test";

import { readFileSync } from "node:fs";

import { decodeFragment, encodeFragment } from "../../exactmines/ui/web/static/js/fragment.js";
import { setTopologies } from "../../exactmines/ui/web/static/js/topology.js";

// The server's list (/api/health's topologies), as tests/test_topology.py keeps it.
setTopologies(JSON.parse(readFileSync(new URL("./topologies.json", import.meta.url))));

test("a position goes to the fragment and back", () => {
  const position = { play: false, width: 3, height: 2, mines: 1, rows: ["H1F", "0MH"] };
  const text = encodeFragment(position);
  assert.equal(text, "3x2x1:H1F/0MH");
  assert.deepEqual(decodeFragment(text, 100), position);
});

test("an unknown mine count has no third number", () => {
  const position = { play: false, width: 2, height: 1, mines: null, rows: ["H1"] };
  assert.equal(encodeFragment(position), "2x1:H1");
  assert.deepEqual(decodeFragment("2x1:H1", 100), position);
});

test("a game's settings go to the fragment and back", () => {
  const game = { play: true, width: 30, height: 16, mines: 99, rule: "opening", seed: 11, noguess: true };
  assert.equal(encodeFragment(game), "play:30x16x99:opening:11:noguess");
  assert.deepEqual(decodeFragment("play:30x16x99:opening:11:noguess", 100), game);
  assert.equal(decodeFragment("play:9x9x10:safe:4", 100).noguess, false);
});

test("rows that do not match the size, or too many cells, are refused", () => {
  assert.ok(decodeFragment("3x2x1:HHH/HH", 100).bad);
  assert.ok(decodeFragment("3x2x1:HHH", 100).bad);
  assert.ok(decodeFragment("3x2x1:HHH/HHH", 5).bad);
});

test("anything else asks for nothing", () => {
  assert.equal(decodeFragment("", 100), null);
  assert.equal(decodeFragment("play:9x9x10:lucky:4", 100), null);
  assert.equal(decodeFragment("3x1:HXH", 100), null);
});

test("a board's topology goes to the fragment after its size, and back", () => {
  const position = { play: false, width: 2, height: 1, mines: 1, rows: ["H1"], topology: "hex" };
  assert.equal(encodeFragment(position), "2x1x1@hex:H1");
  assert.deepEqual(decodeFragment("2x1x1@hex:H1", 100), position);
  const game = { play: true, width: 9, height: 9, mines: 10, rule: "safe", seed: 4, noguess: false,
    topology: "torus" };
  assert.equal(encodeFragment(game), "play:9x9x10@torus:safe:4");
  assert.deepEqual(decodeFragment("play:9x9x10@torus:safe:4", 100), game);
  assert.equal(encodeFragment({ ...game, topology: "square" }), "play:9x9x10:safe:4");
  assert.match(decodeFragment("2x1x1@cube:H1", 100).bad, /a cube board/);
  assert.equal(decodeFragment("play:9x9x10@cylinder:safe:4", 100).topology, "cylinder");
});

test("a no-guess game's method rides in the link unless it is auto", () => {
  const game = { play: true, width: 30, height: 16, mines: 200, rule: "opening", seed: 3, noguess: true,
    noguessMethod: "build" };
  assert.equal(encodeFragment(game), "play:30x16x200:opening:3:noguess-build");
  assert.deepEqual(decodeFragment("play:30x16x200:opening:3:noguess-build", 1000), game);
  assert.equal(encodeFragment({ ...game, noguessMethod: "auto" }), "play:30x16x200:opening:3:noguess");
  assert.equal(decodeFragment("play:30x16x200:opening:3:noguess", 1000).noguessMethod, undefined);
  assert.equal(decodeFragment("play:30x16x200:opening:3:noguess-magic", 1000), null);
});
