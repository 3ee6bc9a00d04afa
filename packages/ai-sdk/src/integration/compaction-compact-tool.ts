import {
  compactToolDescription,
  compactToolInputSchema,
  compactToolResultText,
} from '@compaction/agent-loop';
import {
  CompactionAbortedError,
  type CompactionResult,
  type Compactor,
  type Message,
} from '@compaction/core';
import { jsonSchema, type Tool, tool } from 'ai';

/** The arguments of the `compact` tool. */
export interface CompactRequest {
  /** What to keep, and what phase of the work ended; passed to the compaction. */
  instructions?: string;
}

/**
 * The `compact` tool of an integration and the compactions it was asked for: its `execute` answers at once
 * and notes the call; the integration's next step whose messages hold that call's result compacts them first,
 * forced (even under the target), with the call's instructions.
 */
export class CompactRequests {
  /** The tool, to give the model under the key `compact`. */
  readonly tool: Tool<CompactRequest, string>;
  /** Instructions of calls answered but not yet compacted for, by call id. */
  private readonly pending = new Map<string, string | undefined>();

  constructor() {
    this.tool = tool({
      description: compactToolDescription,
      inputSchema: jsonSchema<CompactRequest>(compactToolInputSchema),
      execute: async (input, { toolCallId }) => {
        const instructions = typeof input?.instructions === 'string' ? input.instructions.trim() : '';
        this.pending.set(toolCallId, instructions === '' ? undefined : instructions);
        return compactToolResultText;
      },
    });
  }

  /** The compaction asked for by the calls whose results `messages` hold, once; undefined when none. */
  take(messages: readonly Message[]): { instructions?: string } | undefined {
    if (this.pending.size === 0) return undefined;
    const instructions: string[] = [];
    let asked = false;
    for (const message of messages) {
      if (message.role !== 'tool') continue;
      for (const part of message.content) {
        if (!this.pending.has(part.toolCallId)) continue;
        asked = true;
        const given = this.pending.get(part.toolCallId);
        if (given !== undefined) instructions.push(given);
        this.pending.delete(part.toolCallId);
      }
    }
    if (!asked) return undefined;
    return instructions.length === 0 ? {} : { instructions: instructions.join('\n\n') };
  }
}

/**
 * The compaction of one step: forced with the model's instructions when it asked for one (a failure of it is
 * the compactor's `error` event, and the step prepares as usual), else `prepare`, which compacts when the
 * trigger fires.
 */
export async function compactOrPrepare(
  compactor: Compactor,
  messages: readonly Message[],
  options: { sessionId?: string },
  requested: { instructions?: string } | undefined,
): Promise<CompactionResult> {
  if (requested !== undefined) {
    try {
      const forced = await compactor.compact(messages, { ...options, ...requested, force: true });
      if (forced.compacted) return forced;
    } catch (error) {
      if (CompactionAbortedError.isInstance(error)) throw error;
    }
  }
  return compactor.prepare(messages, options);
}
