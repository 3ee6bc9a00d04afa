import type { Message, TokenEstimator } from '@compaction/core';

/** Tokens of a conversation, in total and broken down. */
export interface TokenBreakdown {
  tokens: number;
  messages: number;
  byRole: Record<string, number>;
  /** By part type (`text`, `tool-call`, `tool-result`...), plus `overhead` for per-message framing. */
  byPartKind: Record<string, number>;
  /** By tool name: its calls and results. */
  byTool: Record<string, { calls: number; results: number; tokens: number }>;
}

/**
 * Counts a conversation with an estimator and attributes every token: a part's share is what the message
 * counts with the part minus without it, so the parts and the per-message overhead add up to the total.
 */
export function countTokens(messages: readonly Message[], estimator: TokenEstimator): TokenBreakdown {
  const result: TokenBreakdown = {
    tokens: 0,
    messages: messages.length,
    byRole: {},
    byPartKind: {},
    byTool: {},
  };
  const add = (record: Record<string, number>, key: string, value: number) => {
    record[key] = (record[key] ?? 0) + value;
  };
  for (const message of messages) {
    const total = estimator.countMessage(message);
    result.tokens += total;
    add(result.byRole, message.role, total);
    const empty = estimator.countMessage({ ...message, content: [] } as Message);
    let parts = 0;
    for (const part of message.content) {
      const tokens = estimator.countMessage({ ...message, content: [part] } as Message) - empty;
      parts += tokens;
      add(result.byPartKind, part.type, tokens);
      if (part.type === 'tool-call' || part.type === 'tool-result') {
        const name = part.toolName || '(unnamed)';
        const tool = result.byTool[name] ?? { calls: 0, results: 0, tokens: 0 };
        result.byTool[name] = tool;
        if (part.type === 'tool-call') tool.calls++;
        else tool.results++;
        tool.tokens += tokens;
      }
    }
    add(result.byPartKind, 'overhead', total - parts);
  }
  return result;
}

/** A breakdown scaled to an exact total (a provider's count), keeping the estimated proportions. */
export function scaleBreakdown(breakdown: TokenBreakdown, tokens: number): TokenBreakdown {
  const factor = breakdown.tokens === 0 ? 0 : tokens / breakdown.tokens;
  const scale = (record: Record<string, number>) =>
    Object.fromEntries(Object.entries(record).map(([key, value]) => [key, Math.round(value * factor)]));
  return {
    tokens,
    messages: breakdown.messages,
    byRole: scale(breakdown.byRole),
    byPartKind: scale(breakdown.byPartKind),
    byTool: Object.fromEntries(
      Object.entries(breakdown.byTool).map(([name, tool]) => [
        name,
        { ...tool, tokens: Math.round(tool.tokens * factor) },
      ]),
    ),
  };
}
