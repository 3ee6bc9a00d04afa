/**
 * The exit codes of `compaction`, documented in `compaction --help` and docs/cli.md. Scripts branch on them:
 * 2 means the input must be fixed, 3 that a larger budget (or another strategy) is needed.
 */
export const exitCodes = {
  success: 0,
  /** Bad arguments, an invalid config, a provider failure. */
  failure: 1,
  /** Unreadable input: not JSON, not a conversation, nested too deeply. */
  badInput: 2,
  /** The target or limit cannot be reached: the history cannot be compacted that far. Nothing is written. */
  unreachable: 3,
  /** A bug: the error is printed with its stack. */
  unexpected: 70,
} as const;
