/**
 * The real name closest to a mistyped one, when one is close enough to be what was meant: within about a
 * third of the name's length in edits (at least two), or a name that starts with what was typed.
 */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  const wanted = typed.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(wanted, name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined || best.distance === 0) return best?.name;
  const allowed = Math.max(2, Math.floor(wanted.length / 3));
  if (best.distance <= allowed) return best.name;
  // A prefix long enough to mean something: `--out` for `--output`, `sliding` for `sliding-window`.
  const prefixed = names.filter((name) => wanted.length >= 3 && name.toLowerCase().startsWith(wanted));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** ` (did you mean "name"?)` for the closest real name, or nothing when none is close. */
export function didYouMean(typed: string, names: readonly string[]): string {
  const closest = closestName(typed, names);
  return closest === undefined ? '' : ` (did you mean "${closest}"?)`;
}

/** Levenshtein distance, with a transposition counted as one edit (`compcat` is one edit from `compact`). */
function editDistance(left: string, right: string): number {
  const rows = left.length + 1;
  const columns = right.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const substitution = left[row - 1] === right[column - 1] ? 0 : 1;
      let distance = Math.min(
        table[row - 1]![column]! + 1,
        table[row]![column - 1]! + 1,
        table[row - 1]![column - 1]! + substitution,
      );
      if (
        row > 1 &&
        column > 1 &&
        left[row - 1] === right[column - 2] &&
        left[row - 2] === right[column - 1]
      ) {
        distance = Math.min(distance, table[row - 2]![column - 2]! + 1);
      }
      table[row]![column] = distance;
    }
  }
  return table[left.length]![right.length]!;
}
