/**
 * A whole number with thousands separators: `48,210`, as `toLocaleString('en-US')` writes it. Grouped by
 * hand because the first `toLocaleString` (or `Intl.NumberFormat`) of a process loads ICU's number formatting,
 * which costs tens of milliseconds, more than a `compaction count` of a small file takes otherwise. Numbers
 * `String` writes differently from ICU (beyond the safe integers, non-finite, negative zero) still go to
 * `toLocaleString`.
 */
export function formatCount(value: number): string {
  const rounded = Math.round(value);
  if (!Number.isSafeInteger(rounded) || Object.is(rounded, -0)) return rounded.toLocaleString('en-US');
  const digits = String(Math.abs(rounded));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let index = grouped.length; index < digits.length; index += 3) {
    grouped += `,${digits.slice(index, index + 3)}`;
  }
  return rounded < 0 ? `-${grouped}` : grouped;
}

/** A duration: `12 ms`, `1.4 s`. */
export function formatDuration(milliseconds: number): string {
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}

/** A signed percentage change from `before` to `after`: `-50%`. */
export function formatChange(before: number, after: number): string {
  if (before === 0) return '0%';
  const change = Math.round(((after - before) / before) * 100);
  return `${change > 0 ? '+' : ''}${change}%`;
}

/** A money amount in dollars: `$0.0123`. */
export function formatDollars(value: number): string {
  return `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;
}

/** Lines of cells padded into columns; numeric-looking cells are right-aligned. */
export function formatTable(rows: readonly (readonly string[])[], indent = '  '): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [index, cell] of row.entries()) widths[index] = Math.max(widths[index] ?? 0, cell.length);
  }
  return rows
    .map(
      (row) =>
        indent +
        row
          .map((cell, index) =>
            /^[-+$]?[\d,.]+%?$/.test(cell) ? cell.padStart(widths[index]!) : cell.padEnd(widths[index]!),
          )
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}
