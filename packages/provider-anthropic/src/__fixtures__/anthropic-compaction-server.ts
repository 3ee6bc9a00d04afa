import type Anthropic from '@anthropic-ai/sdk';
import type { TestServer } from '@compaction/testing/loopback-server';

/** The block the loopback server returns for a compaction request, as the API does: signed, sent back verbatim. */
export const compactionBlock = {
  type: 'compaction',
  content: 'Summary: the user is refactoring module a.ts; three files were read.',
  encrypted_content: 'opaque-state-1',
  signature: 'signature-1',
};

/** A Messages request body as the server received it. */
export type SentBody = {
  messages: Anthropic.Beta.BetaMessageParam[];
  compaction?: unknown;
  system?: unknown;
};

/**
 * Answers compaction requests (`compaction: { type: 'summarize' }`) with the block alone and `stop_reason:
 * 'compaction'`, as the on-demand compaction docs describe, and other requests with text.
 */
export function speakCompaction(server: TestServer, model: string): void {
  server.handle('/v1/messages', (request) => {
    const body = request.body as SentBody;
    const content =
      body.compaction === undefined
        ? [{ type: 'text', text: `Answer ${server.requests.length}.` }]
        : [compactionBlock];
    return {
      status: 200,
      body: {
        id: `msg_${server.requests.length}`,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: body.compaction === undefined ? 'end_turn' : 'compaction',
        stop_sequence: null,
        // Roughly what the API would count, so the compactor's counter anchors on something near the truth.
        usage: { input_tokens: Math.ceil(JSON.stringify(body.messages).length / 4), output_tokens: 20 },
      },
    };
  });
}

/** Where in the history the newest user request of a sent body stands. */
export function newestIndex(history: readonly Anthropic.MessageParam[], sent: SentBody): number {
  const newest = JSON.stringify(sent.messages.at(-1));
  return history.findLastIndex(
    (message) =>
      message.role === 'user' &&
      typeof message.content === 'string' &&
      newest.includes(JSON.stringify(message.content).slice(1, -1)),
  );
}

/** A user turn of a few hundred tokens that no estimator shortcut counts as a repeat. */
export const longText = (index: number) =>
  `Step ${index}:\n${Array.from({ length: 60 }, (_, line) => `line ${line} of file ${index}: value ${(line * 7919 + index * 104729) % 100003}`).join('\n')}`;
