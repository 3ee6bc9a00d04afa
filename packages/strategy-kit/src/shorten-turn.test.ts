import {
  type AssistantMessage,
  compactionMetadataOf,
  createTokenCounter,
  type Message,
  type ToolMessage,
  withCompactionMetadata,
} from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { system, user } from './__fixtures__/messages.js';
import { groupTurns } from './group-turns.js';
import { fillRoomWithTurn, shortenTurn, wholeTurnSlack } from './shorten-turn.js';

const marks = { round: 2, strategy: 'test' };

/** A turn calling `bash` once per size, with results of those sizes in one tool message. */
function toolTurn(sizes: readonly number[]): [AssistantMessage, ToolMessage] {
  const ids = sizes.map((_, index) => `call_${index}`);
  return [
    {
      role: 'assistant',
      content: ids.map((id) => ({
        type: 'tool-call',
        toolCallId: id,
        toolName: 'bash',
        input: { command: id },
      })),
    },
    {
      role: 'tool',
      content: sizes.map((size, index) => ({
        type: 'tool-result',
        toolCallId: ids[index]!,
        toolName: 'bash',
        output: Array.from({ length: Math.ceil(size / 24) }, (_, line) => `${index}: log line ${line}`)
          .join('\n')
          .slice(0, size),
      })),
    },
  ];
}

function shorten(sizes: number[], room: number) {
  const messages: Message[] = [user('task'), ...toolTurn(sizes)];
  const counter = createTokenCounter();
  const turn = groupTurns(messages)[1]!;
  const shortened = shortenTurn(messages, turn, counter, room, marks);
  return { messages, counter, shortened, tokens: shortened && counter.estimate(shortened) };
}

describe('shortenTurn', () => {
  it('cuts the results to fill the room, largest first, keeping the calls and the pairing', () => {
    const { messages, shortened, tokens } = shorten([200, 40_000, 9_000], 2_000);
    expect(tokens).toBeLessThanOrEqual(2_000);
    expect(tokens).toBeGreaterThanOrEqual(2_000 * 0.95);
    const [call, tool] = shortened as [AssistantMessage, ToolMessage];
    expect(call).toBe(messages[1]);
    expect(compactionMetadataOf(tool)).toEqual({ kind: 'modified', round: 2, strategy: 'test' });
    const outputs = tool.content.map((part) => part.output as string);
    // The small result stays whole; both large ones are cut to about the same size.
    expect(tool.content[0]).toBe((messages[2] as ToolMessage).content[0]);
    expect(outputs[1]).toMatch(/^1: log line 0\n[\s\S]*characters omitted[\s\S]*\n1: log line \d+$/);
    expect(outputs[2]).toMatch(/characters omitted/);
    expect(Math.abs(outputs[1]!.length - outputs[2]!.length)).toBeLessThan(outputs[1]!.length * 0.2);
    expect(tool.content.map((part) => part.toolCallId)).toEqual(['call_0', 'call_1', 'call_2']);
  });

  it('returns undefined when the turn fits, has no results, or cannot fit with its results cut to nothing', () => {
    expect(shorten([100], 10_000).shortened).toBeUndefined();
    expect(shorten([40_000], 5).shortened).toBeUndefined();
    const plain: Message[] = [user('task'), user('x'.repeat(10_000))];
    expect(shortenTurn(plain, groupTurns(plain)[1]!, createTokenCounter(), 50, marks)).toBeUndefined();
  });

  it('leaves pinned tool messages alone', () => {
    const [call, tool] = toolTurn([40_000]);
    const messages: Message[] = [user('task'), call, withCompactionMetadata(tool, { pinned: true })];
    expect(shortenTurn(messages, groupTurns(messages)[1]!, createTokenCounter(), 500, marks)).toBeUndefined();
  });

  it('fits any room its calls leave, and fills it to within a few percent', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (sizes, share) => {
          const { messages, counter } = shorten(sizes, 0);
          const turn = groupTurns(messages)[1]!;
          const whole = counter.estimate(messages.slice(turn.start, turn.end));
          const floor = counter.estimate(
            shorten(
              sizes.map(() => 0),
              0,
            ).messages.slice(1),
          );
          // Room for the calls, each result's note and a little text, up to the whole turn.
          const room = Math.floor(floor + 40 * sizes.length + share * (whole - floor));
          const shortened = shortenTurn(messages, turn, counter, room, marks);
          if (whole <= room) return shortened === undefined;
          expect(shortened).toBeDefined();
          const tokens = counter.estimate(shortened!);
          expect(tokens).toBeLessThanOrEqual(room);
          expect(tokens).toBeGreaterThanOrEqual(Math.min(room - 40 * sizes.length, room * 0.97));
          return true;
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('fillRoomWithTurn', () => {
  it('drops the turn whole when that leaves no more than the slack unused, and fills larger rooms', () => {
    const messages: Message[] = [system('s'), user('task'), ...toolTurn([400_000])];
    const turn = groupTurns(messages)[2]!;
    const counter = createTokenCounter();
    const target = 100_000;
    expect(wholeTurnSlack(target)).toBe(5_000);
    expect(wholeTurnSlack(1_000)).toBe(256);
    expect(fillRoomWithTurn(messages, turn, counter, { room: 5_000, target }, marks)).toBeUndefined();
    const filled = fillRoomWithTurn(messages, turn, counter, { room: 5_001, target }, marks);
    expect(counter.estimate(filled!)).toBeLessThanOrEqual(5_001);
    expect(counter.estimate(filled!)).toBeGreaterThan(4_500);
  });
});
