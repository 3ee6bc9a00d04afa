/** The package that provides a strategy by convention. */
export function strategyPackageName(name: string): string {
  return `@compaction/strategy-${name}`;
}
