import { describe, expect, it } from 'vitest';
import { nonNegativeLeastSquares } from './non-negative-least-squares.js';

describe('nonNegativeLeastSquares', () => {
  it('solves a well-posed system exactly', () => {
    const rows = [new Float64Array([1, 0]), new Float64Array([0, 1]), new Float64Array([1, 1])];
    const weights = nonNegativeLeastSquares(rows, [2, 3, 5]);
    expect(weights[0]).toBeCloseTo(2, 6);
    expect(weights[1]).toBeCloseTo(3, 6);
  });

  it('clamps at zero where the unconstrained solution is negative', () => {
    const rows = [new Float64Array([1, 1]), new Float64Array([1, 2]), new Float64Array([1, 3])];
    // Unconstrained: y = 4 - x, a negative slope.
    const weights = nonNegativeLeastSquares(rows, [3, 2, 1]);
    expect(weights[1]).toBe(0);
    expect(weights[0]).toBeCloseTo(2, 6);
  });

  it('gives zero weight to columns that are always zero', () => {
    const weights = nonNegativeLeastSquares([new Float64Array([2, 0]), new Float64Array([4, 0])], [1, 2]);
    expect(weights[0]).toBeCloseTo(0.5, 6);
    expect(weights[1]).toBe(0);
  });
});
