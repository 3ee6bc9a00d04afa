import { InvalidOptionsError, type JSONObject } from '@compaction/core';
import type { AgentConversationTypes, ConversationAdapter, RecallWire } from './conversation-adapter.js';
import { toolsOf } from './recall-in-loop.js';

/** The name the model calls the conversation's compact tool by. */
export const compactToolName = 'compact';

/** What the model reads about the compact tool. */
export const compactToolDescription =
  'Compact the conversation before your next turn, to free room in your context window: call it when a ' +
  'phase of the work has ended, or when older turns no longer matter. Say in `instructions` what must be ' +
  'kept (decisions, open tasks, file paths) and what phase ended. The system prompt, the task and pinned ' +
  'messages always stay.';

/** The arguments of the compact tool: all optional. */
export const compactToolInputSchema: JSONObject = {
  type: 'object',
  properties: {
    instructions: {
      type: 'string',
      description: 'What to keep, and what phase of the work ended; passed to the compaction.',
    },
  },
  additionalProperties: false,
};

/** What the model reads back when it called the compact tool. */
export const compactToolResultText =
  'Compaction scheduled: the conversation is compacted before your next turn. Go on with the task.';

/** Settings of {@link CompactToolInLoop}. */
export interface CompactToolInLoopSettings<Types extends AgentConversationTypes> {
  adapter: ConversationAdapter<Types>;
  wire: RecallWire<Types>;
}

/**
 * The `compact` tool inside a conversation loop: added to every request's tools in the API's shape, and the
 * model's calls of it answered at once with a short result; the instructions it gave wait for the loop, which
 * runs a forced manual compaction with them before the next model call.
 */
export class CompactToolInLoop<Types extends AgentConversationTypes> {
  private readonly adapter: ConversationAdapter<Types>;
  private readonly wire: RecallWire<Types>;
  private readonly entry: unknown;
  /** Instructions of the calls answered since the last compaction; present once a call was answered. */
  private requested: string[] | undefined;

  constructor(settings: CompactToolInLoopSettings<Types>) {
    this.adapter = settings.adapter;
    this.wire = settings.wire;
    this.entry = settings.wire.tool({
      name: compactToolName,
      description: compactToolDescription,
      inputSchema: compactToolInputSchema,
    });
  }

  /**
   * The body with the compact tool after the request's own tools. Throws {@link InvalidOptionsError} when
   * the request already has a tool named `compact`: the model could not tell the two apart.
   */
  withTool(body: Types['body']): Types['body'] {
    const list = toolsOf(body);
    if (list.some((tool) => this.wire.toolName(tool) === compactToolName)) {
      const message =
        'a tool named "compact" is already in the request; the conversation offers its own compact tool ' +
        'because of its `compactTool` setting (rename the tool, or turn `compactTool` off)';
      throw new InvalidOptionsError({
        subject: 'conversation',
        issues: [{ path: 'request.tools', message }],
      });
    }
    return { ...(body as object), tools: [...list, this.entry] } as Types['body'];
  }

  /** Whether a call is one of the compact tool, which the conversation answers itself. */
  answers(call: Types['toolCall']): boolean {
    return this.wire.call(call).name === compactToolName;
  }

  /** The result of a compact call; its instructions wait for {@link takeRequest}. */
  resultOf(call: Types['toolCall']): Types['toolResult'] {
    const { input } = this.wire.call(call);
    const instructions = (input as { instructions?: unknown } | undefined)?.instructions;
    this.requested = [
      ...(this.requested ?? []),
      ...(typeof instructions === 'string' && instructions.trim() !== '' ? [instructions.trim()] : []),
    ];
    return this.adapter.resultOf(call, compactToolResultText as Types['toolOutput']);
  }

  /**
   * The compaction the model asked for since the last call, once: its instructions (the calls' joined, or
   * none), or undefined when it asked for none.
   */
  takeRequest(): { instructions?: string } | undefined {
    const requested = this.requested;
    this.requested = undefined;
    if (requested === undefined) return undefined;
    return requested.length === 0 ? {} : { instructions: requested.join('\n\n') };
  }
}

/** The compact tool of a conversation with `compactTool`; `InvalidOptionsError` when its adapter has no wire. */
export function compactToolOf<Types extends AgentConversationTypes>(
  offered: boolean,
  adapter: ConversationAdapter<Types>,
): CompactToolInLoop<Types> | undefined {
  if (!offered) return undefined;
  const wire = adapter.recall;
  if (wire === undefined) {
    const message = 'this conversation cannot offer a compact tool: its adapter has no tool wire';
    throw new InvalidOptionsError({ subject: 'conversation', issues: [{ path: 'compactTool', message }] });
  }
  return new CompactToolInLoop({ adapter, wire });
}
