import type { TokenEstimator } from '@compaction/core';

/**
 * Request fields beside the conversation that the provider puts in the model's context, and bills as input:
 * tool definitions (`tools`, Chat's older `functions`) and the choice among them, Responses' `instructions`,
 * and the schemas of structured output (Chat's `response_format`, Responses' `text`, Anthropic's
 * `output_format`).
 */
const overheadFields = [
  'tools',
  'functions',
  'tool_choice',
  'instructions',
  'response_format',
  'text',
  'output_format',
] as const;

/**
 * The tokens a request takes besides its conversation: counted before the provider reported any usage, so the
 * limit is kept from the first request on (Claude Code's tools alone are about 12k tokens).
 */
export function requestOverheadTokens(
  request: Record<string, unknown> | undefined,
  estimator: TokenEstimator,
): number {
  if (request === undefined) return 0;
  let tokens = 0;
  for (const field of overheadFields) {
    const value = request[field];
    if (value === undefined || value === null) continue;
    tokens += estimator.countText(typeof value === 'string' ? value : JSON.stringify(value));
  }
  return tokens;
}
