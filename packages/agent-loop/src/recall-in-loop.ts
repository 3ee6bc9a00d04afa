import { type CompactionStore, InvalidOptionsError } from '@compaction/core';
import { createRecallTool, type RecallTool } from '@compaction/recall';
import type { AgentConversationTypes, ConversationAdapter, RecallWire } from './conversation-adapter.js';

/** Settings of {@link RecallInLoop}. */
export interface RecallInLoopSettings<Types extends AgentConversationTypes> {
  /** The store the conversation's Compactor archives into. */
  store: CompactionStore;
  /** The conversation's session: recall finds only what its compactions archived. */
  sessionId: string;
  adapter: ConversationAdapter<Types>;
  wire: RecallWire<Types>;
}

/**
 * The `recall` tool inside a conversation loop: added to every request's tools in the API's shape, and the
 * model's calls of it answered from the session's archive, in the shape of any other tool result.
 */
export class RecallInLoop<Types extends AgentConversationTypes> {
  /** The tool of the conversation's session. */
  readonly tool: RecallTool;
  private readonly adapter: ConversationAdapter<Types>;
  private readonly wire: RecallWire<Types>;
  private readonly entry: unknown;

  constructor(settings: RecallInLoopSettings<Types>) {
    this.tool = createRecallTool({ store: settings.store, sessionId: settings.sessionId });
    this.adapter = settings.adapter;
    this.wire = settings.wire;
    const { name, description, inputSchema } = this.tool;
    this.entry = settings.wire.tool({ name, description, inputSchema });
  }

  /**
   * The body with the recall tool after the request's own tools. Throws {@link InvalidOptionsError} when
   * the request already has a tool named `recall`: the model could not tell the two apart.
   */
  withTool(body: Types['body']): Types['body'] {
    const tools = toolsOf(body);
    if (tools.some((tool) => this.wire.toolName(tool) === this.tool.name)) {
      const message =
        'a tool named "recall" is already in the request; the conversation offers its own recall tool ' +
        'because its compactor archives (rename the tool, or turn `archive` off)';
      throw new InvalidOptionsError({
        subject: 'conversation',
        issues: [{ path: 'request.tools', message }],
      });
    }
    return { ...(body as object), tools: [...tools, this.entry] } as Types['body'];
  }

  /** Whether a call is one of the recall tool, which the conversation answers itself. */
  answers(call: Types['toolCall']): boolean {
    return this.wire.call(call).name === this.tool.name;
  }

  /**
   * The result of a recall call: the archived text, or, for a handle not found or unusable arguments, an
   * error result that says what to do. A store that fails rejects.
   */
  async resultOf(call: Types['toolCall']): Promise<Types['toolResult']> {
    const answer = await this.tool.execute(this.wire.call(call).input);
    // Every API's tool output takes plain text.
    return answer.status === 'found'
      ? this.adapter.resultOf(call, answer.text as Types['toolOutput'])
      : this.adapter.failureOf(call, answer.text);
  }
}

/** The `tools` of a request body, none when it has none. */
export function toolsOf(body: unknown): unknown[] {
  const tools = (body as { tools?: unknown }).tools;
  return Array.isArray(tools) ? tools : [];
}

/** Arguments sent as JSON text, parsed; text that is not JSON is passed on for the tool to refuse. */
export function parseToolArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
