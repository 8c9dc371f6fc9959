// Exact numbers as the page prints them (static/js/numbers.js).
import assert from "node:assert/strict";
import test from "node:test";

import { bigText, fractionFloat, parseFraction, percentLabel, percentText }
  from "../../exactmines/ui/web/static/js/numbers.js";

test("fractions are read exactly, into BigInt parts", () => {
  assert.deepEqual(parseFraction("3/17"), { num: 3n, den: 17n, text: "3/17" });
  assert.deepEqual(parseFraction("1"), { num: 1n, den: 1n, text: "1" });
  assert.equal(parseFraction(null), null);
  const huge = `1/${"9".repeat(60)}`;
  assert.equal(parseFraction(huge).den, 10n ** 60n - 1n);
});

test("a float from huge parts is finite and close", () => {
  const f = parseFraction(`${"3".repeat(400)}/${"9".repeat(400)}`);
  assert.ok(Math.abs(fractionFloat(f) - 1 / 3) < 1e-11);
});

test("the cell's percentage rounds as Python does, between 1 and 99", () => {
  assert.equal(percentLabel(parseFraction("1/8")), "12");   // 12.5: half to even
  assert.equal(percentLabel(parseFraction("3/8")), "38");   // 37.5: half to even
  assert.equal(percentLabel(parseFraction("1/3")), "33");
  assert.equal(percentLabel(parseFraction("1/1000")), "1"); // never 0 unless certain
  assert.equal(percentLabel(parseFraction("999/1000")), "99");
});

test("percent text", () => {
  assert.equal(percentText(parseFraction("0")), "0%");
  assert.equal(percentText(parseFraction("5/5")), "100%");
  assert.equal(percentText(parseFraction("3/17")), "17.65%");
  assert.equal(percentText(parseFraction("1/300")), "0.333%");
  assert.equal(percentText(parseFraction("1/1000000")), "1.00e-4%");
});

test("long digit strings are cut with their length", () => {
  assert.equal(bigText("12345"), "12345");
  assert.equal(bigText("1".repeat(50), 10), "1111111111… (50 digits)");
});
