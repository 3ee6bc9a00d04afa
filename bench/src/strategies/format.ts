import type { Measurement } from './timing.js';

/** Milliseconds with three significant-ish digits: `412`, `9.41`, `0.052`. */
export function milliseconds(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(3);
}

/**
 * A measurement's median, `refused` when its output failed the check (so it has no time), `out of reach`
 * when the job was not posed to it.
 */
export function measured(measurement: Measurement | undefined): string {
  if (measurement === undefined) return 'out of reach';
  return 'milliseconds' in measurement ? milliseconds(measurement.milliseconds) : 'refused';
}

/** `ours ÷ other` as `0.12×` or `1.50×`, empty when either was not timed. */
export function ratio(ours: Measurement | undefined, other: Measurement | undefined): string {
  if (ours === undefined || other === undefined) return '';
  if (!('milliseconds' in ours) || !('milliseconds' in other)) return '';
  const value = ours.milliseconds / other.milliseconds;
  // Two significant digits below 1, so that 1/500 does not read as 0.00×.
  return `${value >= 1 ? value.toFixed(2) : value.toPrecision(2)}×`;
}

/** A whole number with thousands separators: `1,049,744`. */
export function thousands(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
