import type { AssistantContent, FilePart, ModelMessage, TextPart, ToolContent, ToolResultPart } from 'ai';
import type fc from 'fast-check';
import {
  type ConversationPlan,
  type ConversationPlanSettings,
  conversationPlanArbitrary,
  type ReasoningPlan,
  type RoundPlan,
  type UserTurnPlan,
} from './ai-sdk-conversation-plan.js';
import { attachmentPart, generatedImage, toolOutput } from './ai-sdk-message-parts.js';
import type { AiSdkTarget, TargetCallOptions } from './ai-sdk-target.js';

type ProviderOptions = NonNullable<TextPart['providerOptions']>;
type AssistantPart = Exclude<AssistantContent, string>[number];
type ReasoningPart = Extract<AssistantPart, { type: 'reasoning' }>;

/** A generated conversation as a caller hands it to `generateText`, with the options it goes with. */
export interface AiSdkConversation extends TargetCallOptions {
  target: AiSdkTarget;
  messages: ModelMessage[];
  /** The `system` option, when the system prompt is not the first message. */
  system?: string;
}

/** Generated AI SDK conversations for one target: every part and tool output type its provider converts. */
export function aiSdkConversationArbitrary(
  target: AiSdkTarget,
  settings: ConversationPlanSettings = {},
): fc.Arbitrary<AiSdkConversation> {
  return conversationPlanArbitrary(target, settings).map(renderConversation);
}

const cacheControl: ProviderOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/** Renders a plan with ids, signatures and encrypted content in the shapes each AI SDK provider returns. */
export function renderConversation(plan: ConversationPlan): AiSdkConversation {
  const ids = createIds();
  const render = new Renderer(plan.target, ids);
  const messages: ModelMessage[] = [];
  if (!plan.systemAsOption) {
    messages.push({
      role: 'system',
      content: plan.system,
      ...(plan.cacheBreakpoints ? { providerOptions: cacheControl } : {}),
    });
  }
  messages.push(render.user(plan.task));
  const lastToolsRound = plan.rounds.findLastIndex((round) => round.kind === 'tools');
  plan.rounds.forEach((round, index) => {
    messages.push(...render.round(round, plan.cacheBreakpoints && index === lastToolsRound));
  });
  messages.push(render.user(plan.newest));
  return {
    target: plan.target,
    messages,
    ...(plan.systemAsOption ? { system: plan.system } : {}),
    thinking: plan.thinking,
    store: plan.store,
  };
}

interface Ids {
  next(prefix: string): string;
  token(): string;
}

/** Ids unique in the conversation, and opaque tokens standing in for signatures and encrypted content. */
function createIds(): Ids {
  let count = 0;
  return {
    next: (prefix) => `${prefix}_${String(++count).padStart(4, '0')}`,
    token: () => `EqQBCkYIAxgCKkD${(++count).toString(36).padStart(6, '0')}AbCdEfGh+/Zz09==`,
  };
}

/** Writes the parts of one conversation, drawing its ids from one source. */
class Renderer {
  constructor(
    private readonly target: AiSdkTarget,
    private readonly ids: Ids,
  ) {}

  user(turn: UserTurnPlan): ModelMessage {
    if (turn.asString) return { role: 'user', content: turn.text };
    const text: TextPart = { type: 'text', text: turn.text };
    const attachment = attachmentPart(turn.attachment);
    return { role: 'user', content: attachment === undefined ? [text] : [attachment, text] };
  }

  round(round: RoundPlan, cacheLastResult: boolean): ModelMessage[] {
    const messages = this.roundMessages(round, cacheLastResult);
    if (round.followUp !== null) messages.push(this.user(round.followUp));
    return messages;
  }

  private roundMessages(round: RoundPlan, cacheLastResult: boolean): ModelMessage[] {
    switch (round.kind) {
      case 'tools':
        return this.toolRound(round, cacheLastResult);
      case 'answer': {
        const reasoning = this.reasoning(round.reasoning);
        if (round.asString && reasoning.length === 0 && !round.generatedFile) {
          return [{ role: 'assistant', content: round.answer }];
        }
        const file: FilePart[] = round.generatedFile ? [generatedImage] : [];
        return [{ role: 'assistant', content: [...reasoning, this.text(round.answer), ...file] }];
      }
      case 'provider-tool':
        return [
          { role: 'assistant', content: [...this.reasoning(round.reasoning), ...this.providerTool(round)] },
        ];
      case 'provider-approval':
        return this.providerApproval(round);
    }
  }

  private toolRound(round: RoundPlan & { kind: 'tools' }, cacheLastResult: boolean): ModelMessage[] {
    const calls = round.calls.map((call) => ({ call, id: this.ids.next(this.callPrefix()) }));
    const approvals = calls
      .filter(({ call }) => call.approval !== 'none')
      .map(({ call, id }) => ({ call, id, approvalId: this.ids.next('approval') }));
    const assistant: AssistantPart[] = [
      ...this.reasoning(round.reasoning),
      ...(round.text === null ? [] : [this.text(round.text)]),
      ...calls.map(({ call, id }) => ({
        type: 'tool-call' as const,
        toolCallId: id,
        toolName: call.name,
        input: call.input,
        ...this.itemId('fc'),
      })),
      ...approvals.map(({ id, approvalId }) => ({
        type: 'tool-approval-request' as const,
        approvalId,
        toolCallId: id,
      })),
    ];
    const responses: ToolContent = approvals.map(({ call, approvalId }) => ({
      type: 'tool-approval-response' as const,
      approvalId,
      approved: call.approval === 'approved',
      ...(call.approval === 'denied' ? { reason: 'Not on this branch.' } : {}),
    }));
    const results = calls.map(({ call, id }, index) => {
      const result: ToolResultPart = {
        type: 'tool-result',
        toolCallId: id,
        toolName: call.name,
        output: toolOutput(call),
      };
      return cacheLastResult && index === calls.length - 1
        ? { ...result, providerOptions: cacheControl }
        : result;
    });
    const split = round.splitResults && results.length > 1 ? 1 : results.length;
    const tool: ModelMessage[] = [{ role: 'tool', content: [...responses, ...results.slice(0, split)] }];
    if (split < results.length) tool.push({ role: 'tool', content: results.slice(split) });
    return [{ role: 'assistant', content: assistant }, ...tool];
  }

  /** Web search run by the provider: call, result and answer in one assistant message. */
  private providerTool(round: RoundPlan & { kind: 'provider-tool' }): AssistantPart[] {
    const answer = this.text(round.answer);
    if (this.target === 'anthropic') {
      const id = this.ids.next('srvtoolu');
      return [
        {
          type: 'tool-call',
          toolCallId: id,
          toolName: 'web_search',
          input: { query: round.query },
          providerExecuted: true,
        },
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'web_search',
          output: round.failed
            ? {
                type: 'error-json',
                value: { type: 'web_search_tool_result_error', errorCode: 'max_uses_exceeded' },
              }
            : {
                type: 'json',
                value: [
                  {
                    type: 'web_search_result',
                    url: 'https://docs.example.com/guide',
                    title: 'Guide',
                    pageAge: null,
                    encryptedContent: this.ids.token(),
                  },
                ],
              },
        },
        answer,
      ];
    }
    const id = this.ids.next('ws');
    return [
      { type: 'tool-call', toolCallId: id, toolName: 'web_search', input: {}, providerExecuted: true },
      {
        type: 'tool-result',
        toolCallId: id,
        toolName: 'web_search',
        output: {
          type: 'json',
          value: {
            action: { type: 'search', query: round.query },
            sources: [{ type: 'url', url: 'https://docs.example.com/guide' }],
          },
        },
      },
      answer,
    ];
  }

  /** An MCP call the provider runs once the user approved it, as the OpenAI provider returns it. */
  private providerApproval(round: RoundPlan & { kind: 'provider-approval' }): ModelMessage[] {
    const toolCallId = this.ids.next('mcpcall');
    const approvalId = this.ids.next('mcpr');
    const toolName = 'mcp.search_docs';
    const input = '{"query":"compaction"}';
    const call = { type: 'tool-call' as const, toolCallId, toolName, input, providerExecuted: true };
    const result: AssistantPart[] = round.approved
      ? [
          call,
          {
            type: 'tool-result',
            toolCallId,
            toolName,
            output: {
              type: 'json',
              value: {
                type: 'call',
                serverLabel: 'docs',
                name: 'search_docs',
                arguments: input,
                output: 'Found 2 pages.',
              },
            },
            providerOptions: { openai: { itemId: this.ids.next('mcp') } },
          },
        ]
      : [];
    return [
      {
        role: 'assistant',
        content: [
          ...this.reasoning(round.reasoning),
          call,
          { type: 'tool-approval-request', approvalId, toolCallId },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-approval-response', approvalId, approved: round.approved, providerExecuted: true },
        ],
      },
      { role: 'assistant', content: [...result, this.text(round.answer)] },
    ];
  }

  private reasoning(thoughts: ReasoningPlan[]): ReasoningPart[] {
    return thoughts.flatMap((thought) => this.thought(thought));
  }

  private thought(thought: ReasoningPlan): ReasoningPart[] {
    switch (this.target) {
      case 'anthropic':
        return [
          thought.redacted
            ? {
                type: 'reasoning',
                text: '',
                providerOptions: { anthropic: { redactedData: this.ids.token() } },
              }
            : {
                type: 'reasoning',
                text: thought.text,
                providerOptions: { anthropic: { signature: this.ids.token() } },
              },
        ];
      case 'openai-responses': {
        // The OpenAI provider returns one reasoning part per summary part, each with the item's id.
        const openai = { itemId: this.ids.next('rs'), reasoningEncryptedContent: this.ids.token() };
        return Array.from({ length: thought.summaryParts }, (_, index) => ({
          type: 'reasoning' as const,
          text: index === 0 ? thought.text : `${thought.text} (continued)`,
          providerOptions: { openai },
        }));
      }
      case 'openai-chat':
        // Reasoning from another provider: Chat Completions has no place for it and drops it.
        return [{ type: 'reasoning', text: thought.text }];
    }
  }

  private text(text: string): TextPart {
    return { type: 'text', text, ...this.itemId('msg') };
  }

  /** The Responses item id the OpenAI provider attaches to text and tool calls. */
  private itemId(prefix: string): { providerOptions?: ProviderOptions } {
    return this.target === 'openai-responses'
      ? { providerOptions: { openai: { itemId: this.ids.next(prefix) } } }
      : {};
  }

  private callPrefix(): string {
    return this.target === 'anthropic' ? 'toolu' : 'call';
  }
}
