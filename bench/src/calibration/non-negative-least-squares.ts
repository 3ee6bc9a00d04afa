/**
 * Solves `minimize |X w - y|²` subject to `w >= 0` by cyclic coordinate descent on the normal equations.
 * `rows` are the rows of X. Columns that are zero everywhere get weight 0. Small and exact enough for the
 * dozen columns of a token profile; not a general-purpose solver.
 */
export function nonNegativeLeastSquares(
  rows: readonly Float64Array[],
  targets: readonly number[],
  sweeps = 5000,
): Float64Array {
  const width = rows[0]?.length ?? 0;
  const gram = new Float64Array(width * width);
  const moment = new Float64Array(width);
  rows.forEach((row, rowIndex) => {
    const target = targets[rowIndex]!;
    for (let column = 0; column < width; column++) {
      const value = row[column]!;
      if (value === 0) continue;
      moment[column]! += value * target;
      for (let other = 0; other < width; other++) gram[column * width + other]! += value * row[other]!;
    }
  });
  const weights = new Float64Array(width);
  // gradient = gram · weights - moment, kept up to date as single coordinates change.
  const gradient = moment.map((value) => -value);
  for (let sweep = 0; sweep < sweeps; sweep++) {
    let largestStep = 0;
    for (let column = 0; column < width; column++) {
      const curvature = gram[column * width + column]!;
      if (curvature === 0) continue;
      const next = Math.max(0, weights[column]! - gradient[column]! / curvature);
      const step = next - weights[column]!;
      if (step === 0) continue;
      weights[column] = next;
      for (let other = 0; other < width; other++) gradient[other]! += step * gram[other * width + column]!;
      largestStep = Math.max(largestStep, Math.abs(step));
    }
    if (largestStep < 1e-12) break;
  }
  return weights;
}
