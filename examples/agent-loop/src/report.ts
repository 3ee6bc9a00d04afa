import type { CompactionEvent, ContextOverflowError, Message, TokenCounter } from '@compaction/core';

/** What the report reads of a conversation, whichever SDK it runs over. */
export interface ReportedConversation<Response> {
  on(name: 'compaction', listener: (payload: { step: number; event: CompactionEvent }) => void): () => void;
  on(
    name: 'overflow',
    listener: (payload: { step: number; error: ContextOverflowError }) => void,
  ): () => void;
  on(
    name: 'response',
    listener: (payload: { step: number; response: Response; inputTokens: number | undefined }) => void,
  ): () => void;
  readonly compactions: CompactionEvent[];
  readonly coreHistory: Message[];
  readonly history: Array<{ role: string }>;
  readonly compactor: { counter: TokenCounter };
}

const format = (tokens: number) => tokens.toLocaleString('en-US');

/**
 * Prints each compaction, overflow and request of a conversation as it happens, and returns the function that
 * prints the summary at the end. `callsOf` lists the tool calls of an answer (`read_file src/index.ts`).
 */
export function reportProgress<Response>(
  conversation: ReportedConversation<Response>,
  callsOf: (response: Response) => string[],
): (answer: string) => void {
  let lastSent = 0;
  conversation.on('compaction', ({ step, event }) => {
    console.log(
      `step ${String(step).padStart(2)}  compacted (${event.trigger}, ${event.strategy}): ` +
        `${format(event.tokensBefore)} -> ${format(event.tokensAfter)} tokens, ` +
        `${event.messagesBefore} -> ${event.messagesAfter} messages`,
    );
  });
  conversation.on('overflow', ({ step, error }) => {
    console.log(`step ${String(step).padStart(2)}  refused as too long (${error.message}); retrying once`);
  });
  conversation.on('response', ({ step, response, inputTokens = 0 }) => {
    lastSent = inputTokens;
    const calls = callsOf(response);
    console.log(
      `step ${String(step).padStart(2)}  sent ${format(inputTokens).padStart(6)} tokens  ` +
        (calls.length > 0 ? `-> ${calls.join(', ')}` : '-> answer'),
    );
  });
  return (answer) => {
    const compactions = conversation.compactions;
    const automatic = compactions.filter((event) => event.trigger === 'auto').length;
    const overflow = compactions.filter((event) => event.trigger === 'overflow').length;
    const history = conversation.history;
    const historyTokens = conversation.compactor.counter.estimate(conversation.coreHistory);
    console.log('');
    console.log(
      `Done after ${history.filter((message) => message.role === 'assistant').length} answers: ${answer}`,
    );
    console.log(
      `History: ${history.length} messages kept whole (about ${format(historyTokens)} tokens); ` +
        `the last request carried ${format(lastSent)} tokens.`,
    );
    console.log(`Compactions: ${automatic} automatic, ${overflow} after an overflow.`);
  };
}

/** A tool call as the report prints it: the tool's name and the path it reads, if any. */
export const describeCall = (name: string, input: unknown) =>
  `${name} ${(input as { path?: string }).path ?? ''}`.trim();
