/** Number formats of the evaluation report. */

/** `97.5%` */
export function percent(share: number, digits = 1): string {
  return `${(share * 100).toFixed(digits)}%`;
}

/** `0.68×` */
export function ratio(value: number, digits = 2): string {
  return `${value.toFixed(digits)}×`;
}

/** `1,234,567` */
export function integer(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** `$0.1234` */
export function dollars(value: number): string {
  return `$${value.toFixed(value < 1 ? 4 : 2)}`;
}

/** `12.3 ms`, `1.23 s` */
export function milliseconds(value: number): string {
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 10) return `${value.toFixed(0)} ms`;
  return `${value.toFixed(2)} ms`;
}

/** `7/9` */
export function fraction(kept: number, total: number): string {
  return total === 0 ? '–' : `${kept}/${total}`;
}

/** A Markdown table; columns whose cells all start like a number are right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const escapeCell = (cell: string) => cell.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const numeric = header.map(
    (_, column) => rows.length > 0 && rows.every((row) => /^[\d$–-]/.test(row[column] ?? '')),
  );
  return [
    `| ${header.map(escapeCell).join(' | ')} |`,
    `|${numeric.map((right) => (right ? '---:' : '---')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
  ].join('\n');
}
