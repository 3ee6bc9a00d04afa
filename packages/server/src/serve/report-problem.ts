/**
 * Writes a problem as one line on standard error: one the server works around (no request to answer it in),
 * or the details of a failure that its answer leaves out.
 */
export function reportProblem(what: string, error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(`compaction serve: ${what}: ${reason}\n`);
}
