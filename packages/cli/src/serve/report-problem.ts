/** Writes a problem the server works around (no request to answer it in) as one line on standard error. */
export function reportProblem(what: string, error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(`compaction serve: ${what}: ${reason}\n`);
}
