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

/** A long string of digits cut after `keep` characters, with its length. */
export function bigText(text, keep = 40) {
  return text.length <= keep ? text : `${text.slice(0, keep)}… (${text.length} digits)`;
}
