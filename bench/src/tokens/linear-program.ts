/**
 * A small dense two-phase simplex solver: minimizes `objective · x` subject to `rows[i] · x <= bounds[i]` and
 * `x >= 0`. Bland's rule picks the pivots, so it never cycles. Made for the fit of the estimator profiles (a
 * few dozen variables, a few hundred constraints); not a general-purpose solver.
 */

/** The minimizing point, or why there is none. */
export type LinearProgramResult =
  | { status: 'optimal'; solution: Float64Array; value: number }
  | { status: 'infeasible' | 'unbounded' };

const epsilon = 1e-9;

export function solveLinearProgram(
  objective: readonly number[],
  rows: readonly (readonly number[])[],
  bounds: readonly number[],
): LinearProgramResult {
  const variables = objective.length;
  const constraints = rows.length;
  // Columns: the variables, one slack per row, one artificial per row whose bound is negative, the right side.
  const negative = bounds.map((bound) => bound < 0);
  const artificialCount = negative.filter(Boolean).length;
  const width = variables + constraints + artificialCount + 1;
  const right = width - 1;
  const tableau = rows.map(() => new Float64Array(width));
  const basis = new Int32Array(constraints);
  let artificial = variables + constraints;
  rows.forEach((row, index) => {
    const line = tableau[index]!;
    const sign = negative[index] ? -1 : 1;
    for (let column = 0; column < variables; column++) line[column] = sign * (row[column] ?? 0);
    line[variables + index] = sign;
    line[right] = sign * bounds[index]!;
    if (negative[index]) {
      line[artificial] = 1;
      basis[index] = artificial++;
    } else basis[index] = variables + index;
  });

  // Phase 1: minimize the sum of the artificials, which is 0 exactly when the constraints can all hold.
  if (artificialCount > 0) {
    const costs = new Float64Array(width);
    for (let column = variables + constraints; column < right; column++) costs[column] = 1;
    const value = runSimplex(tableau, basis, costs, right);
    if (value === undefined || value > 1e-7) return { status: 'infeasible' };
    // Drive artificials left in the basis (at 0) out, or drop their rows when they are redundant.
    for (let index = 0; index < constraints; index++) {
      if (basis[index]! < variables + constraints) continue;
      const line = tableau[index]!;
      let entering = -1;
      for (let column = 0; column < variables + constraints; column++) {
        if (Math.abs(line[column]!) > epsilon) {
          entering = column;
          break;
        }
      }
      if (entering >= 0) pivot(tableau, basis, index, entering);
    }
    // Artificials may never enter again.
    for (const line of tableau) line.fill(0, variables + constraints, right);
  }

  // Phase 2: the objective itself.
  const costs = new Float64Array(width);
  objective.forEach((value, column) => {
    costs[column] = value;
  });
  const value = runSimplex(tableau, basis, costs, variables + constraints);
  if (value === undefined) return { status: 'unbounded' };
  const solution = new Float64Array(variables);
  basis.forEach((column, index) => {
    if (column < variables) solution[column] = tableau[index]![right]!;
  });
  return { status: 'optimal', solution, value };
}

/**
 * Minimizes `costs · x` from the current basic feasible solution, entering only the first `enterable`
 * columns. Returns the minimum, or `undefined` when it is unbounded.
 */
function runSimplex(
  tableau: Float64Array[],
  basis: Int32Array,
  costs: Float64Array,
  enterable: number,
): number | undefined {
  const right = costs.length - 1;
  for (;;) {
    // Reduced costs: c_j - c_B · column j.
    let entering = -1;
    for (let column = 0; column < enterable; column++) {
      let reduced = costs[column]!;
      for (let index = 0; index < tableau.length; index++) {
        const value = tableau[index]![column]!;
        if (value !== 0) reduced -= costs[basis[index]!]! * value;
      }
      if (reduced < -epsilon) {
        entering = column;
        break;
      }
    }
    if (entering < 0) {
      let value = 0;
      for (let index = 0; index < tableau.length; index++)
        value += costs[basis[index]!]! * tableau[index]![right]!;
      return value;
    }
    let leaving = -1;
    let best = Number.POSITIVE_INFINITY;
    for (let index = 0; index < tableau.length; index++) {
      const value = tableau[index]![entering]!;
      if (value <= epsilon) continue;
      const ratio = tableau[index]![right]! / value;
      if (ratio < best - epsilon || (ratio < best + epsilon && basis[index]! < basis[leaving]!)) {
        best = ratio;
        leaving = index;
      }
    }
    if (leaving < 0) return undefined;
    pivot(tableau, basis, leaving, entering);
  }
}

function pivot(tableau: Float64Array[], basis: Int32Array, row: number, column: number): void {
  const line = tableau[row]!;
  const scale = line[column]!;
  for (let index = 0; index < line.length; index++) line[index]! /= scale;
  for (let other = 0; other < tableau.length; other++) {
    if (other === row) continue;
    const target = tableau[other]!;
    const factor = target[column]!;
    if (factor === 0) continue;
    for (let index = 0; index < line.length; index++) target[index]! -= factor * line[index]!;
  }
  basis[row] = column;
}
