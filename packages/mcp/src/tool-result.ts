import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool result the model reads as it is. */
export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** A tool error: a result marked `isError`, so the model reads why and the session goes on. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Runs a tool's work and turns a failing store into a tool error that says so, instead of the bare message
 * of whatever the store threw.
 */
export async function answerOrStoreError(
  tool: string,
  work: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return errorResult(`${tool}: the compaction store failed: ${(error as Error).message ?? String(error)}`);
  }
}
