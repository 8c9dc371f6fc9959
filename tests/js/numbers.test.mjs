// Exact numbers as the page prints them (static/js/numbers.js).
import assert from "node:assert/strict";
import test from "node:test";

import {
  fractionFloat, isLong, parseFraction, percentLabel, percentText, shortDigits, shortFraction,
} from "../../exactmines/ui/web/static/js/numbers.js";

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


test("long whole numbers get a short form, short ones stay as they are", () => {
  assert.equal(shortDigits("1031"), "1031");
  assert.equal(shortDigits("123456789012345"), "123456789012345");  // 15 digits
  assert.equal(shortDigits("1234567890123456"), "1.23 × 10¹⁵");
  // C(256, 40): the layouts of an empty 16x16 board with 40 mines, 48 digits.
  assert.equal(shortDigits("104921249538770987879991995968495941124675048800"), "1.04 × 10⁴⁷");
  assert.equal(shortDigits("-99999999999999999"), "-9.99 × 10¹⁶");  // truncated, not rounded up
});

test("long fractions are shown to four digits, truncated, short ones exactly", () => {
  const f = (text) => shortFraction(parseFraction(text));
  assert.equal(f("3/17"), "3/17");
  assert.equal(isLong(parseFraction("3/17")), false);
  assert.equal(isLong(parseFraction(`1/${"7".repeat(16)}`)), true);
  assert.equal(f(`${"2128".padEnd(20, "0")}/1${"0".repeat(20)}`), "≈ 0.2128");
  assert.equal(f(`2${"0".repeat(20)}/${"9".repeat(21)}`), "≈ 0.2000");  // 0.20000...02
  assert.equal(f(`${"9".repeat(24)}/1${"0".repeat(24)}`), "≈ 0.9999");  // never rounded to 1
  assert.equal(f(`123${"0".repeat(20)}/1${"0".repeat(24)}`), "≈ 0.01230");
  assert.equal(f(`1234${"0".repeat(20)}/1${"0".repeat(20)}`), "≈ 1234");
  assert.equal(f(`1/1${"0".repeat(20)}`), "≈ 1.000 × 10⁻²⁰");
  assert.equal(f(`-1/${"7".repeat(17)}`), "≈ -1.285 × 10⁻¹⁷");
  assert.equal(f(`0/${"7".repeat(17)}`), "0");
});
