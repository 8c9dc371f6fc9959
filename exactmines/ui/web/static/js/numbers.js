/* Exact numbers as the page shows them: fractions arrive as strings ("3/17"), layout
 * counts as strings of digits; both stay exact (BigInt). Floats are made only to pick a
 * colour or print a rounded percentage. Pure: no DOM, tested with node (tests/js). */

/** "n/d" (or "n") -> {num, den, text} with BigInt parts; null stays null. */
export function parseFraction(text) {
  if (text === null || text === undefined) return null;
  const [n, d] = text.split("/");
  return { num: BigInt(n), den: d === undefined ? 1n : BigInt(d), text };
}

/** A float near the fraction: 12 significant places from exact integers, so huge
 * numerators and denominators never give Infinity/Infinity. */
export function fractionFloat(f) {
  return Number((f.num * 1000000000000n) / f.den) / 1e12;
}

/** The rounded percentage of `analyze --image`: Python's round (halves to even), from the
 * exact fraction, kept between 1 and 99 so that only certain cells read 0 or 100. */
export function percentLabel(f) {
  const scaled = f.num * 100n;
  let q = scaled / f.den;
  const twice = 2n * (scaled - q * f.den);
  if (twice > f.den || (twice === f.den && q % 2n === 1n)) q += 1n;
  return String(Math.min(Math.max(Number(q), 1), 99));
}

/** A percentage with a few decimals ("17.65%"), exactly "0%" and "100%" at the ends. */
export function percentText(f) {
  const p = fractionFloat(f) * 100;
  if (f.num === 0n) return "0%";
  if (f.num === f.den) return "100%";
  return (p < 0.01 ? p.toExponential(2) : p.toFixed(p < 1 ? 3 : 2)) + "%";
}

/** Numbers longer than this many digits are shown in a short form, the exact value on
 * demand. */
export const SHORT_FROM = 15;

const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";
const power = (e) => String(e).split("").map((d) => (d === "-" ? "⁻" : SUPERSCRIPT[Number(d)])).join("");

/** A whole number (a string of digits) for people: as it is up to SHORT_FROM digits
 * ("1031"), else three significant digits and a power of ten ("8.27 × 10⁴³"), truncated
 * (never rounded up to a number it is not). */
export function shortDigits(text) {
  const digits = text.replace(/^-/, "");
  if (digits.length <= SHORT_FROM) return text;
  const sign = text.startsWith("-") ? "-" : "";
  return `${sign}${digits[0]}.${digits.slice(1, 3)} × 10${power(digits.length - 1)}`;
}

/** Whether a fraction (or whole number) has a part longer than SHORT_FROM digits. */
export function isLong(f) {
  return f.num.toString().length > SHORT_FROM || f.den.toString().length > SHORT_FROM;
}

/** num * 10^k for any whole k (BigInt), truncated when k < 0. */
const shift = (num, k) => (k >= 0 ? num * 10n ** BigInt(k) : num / 10n ** BigInt(-k));

/** A fraction for people: its exact text when short ("3/17"), else four significant digits,
 * truncated: "≈ 0.2128", "≈ 0.001234", "≈ 123.4", or a power of ten far from 1
 * ("≈ 3.141 × 10⁻⁹"). */
export function shortFraction(f) {
  if (!isLong(f)) return f.text;
  if (f.num === 0n) return "0";
  const sign = f.num < 0n ? "-" : "";
  const num = f.num < 0n ? -f.num : f.num;
  // e: the power of ten of the value, 10^e <= num/den < 10^(e+1).
  let e = num.toString().length - f.den.toString().length;  // or one more than it
  if (num * 10n ** BigInt(Math.max(0, -e)) < f.den * 10n ** BigInt(Math.max(0, e))) e -= 1;
  const digits = (shift(num, 3 - e) / f.den).toString();  // four digits, d.ddd x 10^e
  if (e >= 0 && e < 6) return `≈ ${sign}${digits.slice(0, e + 1).padEnd(e + 1, "0")}${e < 3 ? `.${digits.slice(e + 1)}` : ""}`;
  if (e < 0 && e >= -4) return `≈ ${sign}0.${"0".repeat(-e - 1)}${digits}`;
  return `≈ ${sign}${digits[0]}.${digits.slice(1)} × 10${power(e)}`;
}
