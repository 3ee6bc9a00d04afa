import { type Message, toolCallsOf } from '@compaction/core';
import { groupTurns } from '@compaction/strategy-kit';
import fc from 'fast-check';
import { conversationArbitrary } from './conversation-arbitrary.js';

/** Settings of {@link hugeResultConversationArbitrary}. */
export interface HugeResultConversationSettings {
  /** Fewest characters of the huge result. Default 50,000. */
  minCharacters?: number;
  /** Most characters of the huge result. Default 2,000,000. */
  maxCharacters?: number;
}

/**
 * Generates the conversations of {@link conversationArbitrary}, most of them with one tool turn added
 * between two turns whose result is huge (a log of 50,000 to 2,000,000 characters by default): the shape
 * that tempts a strategy to drop everything around one turn, or to drop the turn and end far below its
 * target.
 */
export function hugeResultConversationArbitrary(
  settings: HugeResultConversationSettings = {},
): fc.Arbitrary<Message[]> {
  const characters = fc.integer({
    min: settings.minCharacters ?? 50_000,
    max: settings.maxCharacters ?? 2_000_000,
  });
  return fc
    .tuple(
      conversationArbitrary({ maxSteps: 16 }),
      fc.option(
        fc.record({ position: fc.nat(), characters, lineLength: fc.integer({ min: 20, max: 400 }) }),
        {
          freq: 4,
          nil: null,
        },
      ),
    )
    .map(([messages, huge]) => (huge === null ? messages : withHugeTurn(messages, huge)));
}

function withHugeTurn(
  messages: Message[],
  huge: { position: number; characters: number; lineLength: number },
): Message[] {
  const turns = groupTurns(messages);
  // A last turn still waiting for results must stay last.
  const last = turns[turns.length - 1];
  const pending =
    last !== undefined &&
    toolCallsOf(messages[last.start]!).length >
      messages
        .slice(last.start, last.end)
        .reduce((sum, message) => sum + (message.role === 'tool' ? message.content.length : 0), 0);
  const boundaries = [...turns.map((turn) => turn.start), messages.length].slice(
    0,
    pending ? turns.length : turns.length + 1,
  );
  const at = boundaries[huge.position % boundaries.length] ?? 0;
  const id = 'call_huge';
  const line = 'huge log line '.padEnd(huge.lineLength, '.');
  const text = Array.from(
    { length: Math.ceil(huge.characters / (line.length + 8)) },
    (_, index) => `${index}: ${line}`,
  )
    .join('\n')
    .slice(0, huge.characters);
  const turn: Message[] = [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 'bash', input: { command: 'cat build.log' } }],
    },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'bash', output: text }] },
  ];
  return [...messages.slice(0, at), ...turn, ...messages.slice(at)];
}
