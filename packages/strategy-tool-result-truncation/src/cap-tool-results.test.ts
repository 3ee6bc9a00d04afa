import {
  compactionMetadataOf,
  createTokenCounter,
  InvalidOptionsError,
  type Message,
} from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { capToolResults, ingestionCapName } from './cap-tool-results.js';

const lines = (count: number, label: string) =>
  Array.from({ length: count }, (_, index) => `${label} line ${index}`).join('\n');
const huge = `${lines(400, 'head')}\nTraceback: ValueError: the middle\n${lines(400, 'tail')}`;
const call: Message = {
  role: 'assistant',
  content: [
    { type: 'tool-call', toolCallId: 'a', toolName: 'bash', input: { command: 'pytest' } },
    { type: 'tool-call', toolCallId: 'b', toolName: 'read', input: { path: 'x.py' } },
  ],
};
const results: Message = {
  role: 'tool',
  content: [
    { type: 'tool-result', toolCallId: 'a', toolName: 'bash', output: huge, isError: true },
    { type: 'tool-result', toolCallId: 'b', toolName: 'read', output: 'small' },
  ],
};

describe('capToolResults', () => {
  it('cuts a result over the cap to about the cap, start and end kept, and returns the original', () => {
    const counter = createTokenCounter();
    const before = structuredClone([call, results]);
    const capped = capToolResults([call, results], { maxResultTokens: 300, counter });
    expect([call, results]).toEqual(before);
    expect(capped.messages[0]).toBe(call);
    expect(capped.originals).toEqual([results]);
    const message = capped.messages[1]!;
    expect(compactionMetadataOf(message)).toMatchObject({ kind: 'modified', strategy: ingestionCapName });
    if (message.role !== 'tool') throw new Error('expected the tool message');
    const [cut, small] = message.content;
    expect(cut).toMatchObject({ toolCallId: 'a', isError: true });
    expect(cut!.output).toContain('head line 0');
    expect(cut!.output).toContain('tail line 399');
    expect(cut!.output).not.toContain('head line 200');
    expect(small).toBe(results.content[1]);
    const tokens = counter.countMessage(message);
    expect(tokens).toBeLessThan(counter.countMessage(results) / 4);
    expect(tokens).toBeLessThanOrEqual(300 + 40);
  });

  it('leaves results under the cap and exempt tools alone, as the same objects', () => {
    const under = capToolResults([call, results], { maxResultTokens: 100_000 });
    expect(under.messages[1]).toBe(results);
    expect(under.originals).toEqual([]);
    const exempt = capToolResults([results], { maxResultTokens: 300, exemptTools: ['bash'] });
    expect(exempt.messages[0]).toBe(results);
  });

  it('rejects a cap too small to hold the note of a cut', () => {
    expect(() => capToolResults([results], { maxResultTokens: 10 })).toThrow(InvalidOptionsError);
    expect(() => capToolResults([results], { maxResultTokens: 10 })).toThrow(/maxResultTokens/);
  });
});

describe('capToolResults with archive', () => {
  it('names the whole result in each cut note and returns it as an archived item', () => {
    const counter = createTokenCounter();
    const capped = capToolResults([call, results], { maxResultTokens: 300, counter, archive: true });
    expect(capped.archived).toEqual([
      { handle: capped.archived[0]!.handle, label: 'bash output', text: huge },
    ]);
    const message = capped.messages[1]!;
    if (message.role !== 'tool') throw new Error('expected the tool message');
    expect(message.content[0]!.output).toContain(
      `; recall "${capped.archived[0]!.handle}" for the whole output ...]`,
    );
    // Still about the cap with the longer note.
    expect(counter.countMessage(message)).toBeLessThanOrEqual(330);
    expect(capToolResults([call, results], { maxResultTokens: 300, counter }).archived).toEqual([]);
  });
});
