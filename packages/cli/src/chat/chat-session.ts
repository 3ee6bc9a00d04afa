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
  /** The compaction made before the call (automatic) or after an overflow, if any. */
  compaction?: CompactionResult;
  inputTokens?: number;
  outputTokens?: number;
}

/**
 * A chat conversation with a provider and a Compactor: each user message is appended, the history is
 * compacted when the trigger fires, the model answers, and the reported input tokens anchor the count.
 * A context-overflow refusal is recovered once by compacting with the `overflow` trigger.
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
    let compaction: CompactionResult | undefined = await this.compactor.prepare(history);
    let sent = compaction.messages;
    if (!compaction.compacted) compaction = undefined;
    let result: Awaited<ReturnType<Provider['generate']>>;
    try {
      result = await this.generate(sent, abortSignal);
    } catch (error) {
      compaction = await this.compactor.recover(sent, error);
      sent = compaction.messages;
      result = await this.generate(sent, abortSignal);
    }
    if (compaction?.compacted) this.compactions++;
    if (result.usage !== undefined)
      this.compactor.recordUsage({ messages: sent, inputTokens: result.usage.inputTokens });
    this.messages = [...sent, { role: 'assistant', content: [{ type: 'text', text: result.text }] }];
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
