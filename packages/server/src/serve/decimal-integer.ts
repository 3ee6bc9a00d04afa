/**
 * A whole number written as plain decimal digits (`16`, not `0x10`, `1e1`, `+16`, ` 16` or `16.0`, which
 * `Number` would all take), or `undefined` for anything else. At most 15 digits, so the value is exact.
 */
export function parseDecimalInteger(text: string): number | undefined {
  return /^[0-9]{1,15}$/.test(text) ? Number(text) : undefined;
}
