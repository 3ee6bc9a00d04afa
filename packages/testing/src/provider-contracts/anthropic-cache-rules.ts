import type { AnthropicTurn } from './anthropic-turns.js';
import type { ContractViolation } from './contract-violation.js';
import { isJSONRecord, type JSONRecord } from './json-record.js';

/** Most cache breakpoints one request may set (prompt caching documentation). */
export const anthropicCacheBreakpointLimit = 4;

/** At most four `cache_control` breakpoints across tools, system, messages and the top-level setting. */
export function anthropicCacheViolations(
  request: JSONRecord,
  turns: readonly AnthropicTurn[],
): ContractViolation[] {
  const breakpoints: string[] = [];
  const visit = (value: unknown, path: string) => {
    if (!isJSONRecord(value)) return;
    if (value.cache_control !== undefined && value.cache_control !== null) breakpoints.push(path);
    // Blocks nested in a tool result can carry their own breakpoints.
    if (Array.isArray(value.content) && value.type === 'tool_result') {
      for (const [index, inner] of value.content.entries()) visit(inner, `${path}.content[${index}]`);
    }
  };
  if (request.cache_control !== undefined && request.cache_control !== null)
    breakpoints.push('cache_control');
  if (Array.isArray(request.tools)) {
    for (const [index, tool] of request.tools.entries()) visit(tool, `tools[${index}]`);
  }
  if (Array.isArray(request.system))
    for (const [index, block] of request.system.entries()) visit(block, `system[${index}]`);
  for (const located of turns.flatMap((turn) => turn.blocks)) visit(located.block, located.path);
  if (breakpoints.length <= anthropicCacheBreakpointLimit) return [];
  return [
    {
      rule: 'anthropic.cache-breakpoints',
      path: breakpoints[anthropicCacheBreakpointLimit]!,
      message: `${breakpoints.length} cache_control breakpoints (${breakpoints.join(', ')}); at most ${anthropicCacheBreakpointLimit} are allowed`,
    },
  ];
}
