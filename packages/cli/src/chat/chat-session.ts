import { callWithCompaction } from '@compaction/agent-loop';
import {
  type CompactionResult,
  type Compactor,
  compactionMetadataOf,
  type Message,
  type Provider,
  textOf,
} from '@compaction/core';

/** What one chat turn did. */
export interface ChatTurn {
  answer: string;
  /** The last compaction of the turn, if any: before the call (automatic) or after an overflow. */
  compaction?: CompactionResult;
  inputTokens?: number;
  outputTokens?: number;
}

/**
 * A chat conversation with a provider and a Compactor: each user message is appended, the history is
 * compacted when the trigger fires, the model answers, and the reported input tokens anchor the count.
 * A context-overflow refusal is recovered by compacting with the `overflow` trigger and sending again, as the
 * one overflow policy of `@compaction/agent-loop` says (sized by the provider's figures, a bounded number of
 * retries).
 */
export class ChatSession {
  messages: Message[];
  compactions = 0;
  private readonly provider: Provider;
  private readonly compactor: Compactor;
  private readonly maxOutputTokens: number;

  constructor(options: {
    provider: Provider;
    compactor: Compactor;
    system?: string;
    maxOutputTokens?: number;
  }) {
    this.provider = options.provider;
    this.compactor = options.compactor;
    this.maxOutputTokens = options.maxOutputTokens ?? 1024;
    this.messages =
      options.system === undefined
        ? []
        : [{ role: 'system', content: [{ type: 'text', text: options.system }] }];
  }

  /** Sends a user message and returns the model's answer. */
  async send(text: string, abortSignal?: AbortSignal): Promise<ChatTurn> {
    const history: Message[] = [...this.messages, { role: 'user', content: [{ type: 'text', text }] }];
    const { provider } = this;
    const call = await callWithCompaction({
      compactor: this.compactor,
      messages: history,
      send: (messages) => this.generate(messages, abortSignal),
      inputTokens: (result) => result.usage?.inputTokens,
      parseContextOverflow: (error) => provider.parseContextOverflow?.(error),
      provider: provider.name,
      signal: abortSignal,
    });
    const { result } = call;
    const compaction = call.compactions.at(-1);
    this.compactions += call.compactions.length;
    this.messages = [...call.messages, { role: 'assistant', content: [{ type: 'text', text: result.text }] }];
    return {
      answer: result.text,
      ...(compaction === undefined ? {} : { compaction }),
      ...(result.usage === undefined
        ? {}
        : { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens }),
    };
  }

  /** Compacts now, with optional instructions (the `/compact` command). */
  async compact(instructions?: string): Promise<CompactionResult> {
    const result = await this.compactor.compact(this.messages, {
      trigger: 'manual',
      ...(instructions === undefined || instructions === '' ? {} : { instructions }),
    });
    this.messages = result.messages;
    if (result.compacted) this.compactions++;
    return result;
  }

  /** The context size against the budget. */
  tokens() {
    const { limit, trigger, target, contextWindow } = this.compactor.budget;
    return {
      tokens: this.compactor.counter.count(this.messages),
      messages: this.messages.length,
      contextWindow,
      limit,
      trigger,
      target,
    };
  }

  /** One line per message: role, compaction mark, and the start of its text. */
  historyLines(width = 100): string[] {
    return this.messages.map((message, index) => {
      const mark = compactionMetadataOf(message)?.kind;
      const text = (textOf(message) || describeParts(message)).replace(/\s+/g, ' ').trim();
      const short = text.length > width ? `${text.slice(0, width - 1)}…` : text;
      return `${String(index + 1).padStart(3)} ${message.role.padEnd(9)}${mark ? ` [${mark}]` : ''} ${short}`;
    });
  }

  private generate(messages: Message[], abortSignal?: AbortSignal) {
    return this.provider.generate({
      messages,
      maxOutputTokens: this.maxOutputTokens,
      ...(abortSignal === undefined ? {} : { abortSignal }),
    });
  }
}

function describeParts(message: Message): string {
  return message.content.map((part) => `(${part.type})`).join(' ');
}
