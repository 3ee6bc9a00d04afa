import type { AssistantMessage, Message, ToolMessage, ToolResultPart } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { calls, results, user } from './__fixtures__/messages.js';
import { archivedChanges } from './archive-changes.js';
import { archivedToolInput, archivedToolResult, recallHandlesIn, recallHint } from './archive-item.js';
import { shortenToolResult, withShortenedOutput } from './shorten-tool-result.js';

const long = (id: string): ToolMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'bash', output: `${id}:${'x'.repeat(2000)}` }],
});
const withPart = (message: ToolMessage, part: ToolResultPart): ToolMessage => ({
  ...message,
  content: [part],
});

describe('shortenToolResult with archive', () => {
  it("names the whole result's handle in its note, and its item holds the whole text", () => {
    const part = long('a').content[0]!;
    const shortened = shortenToolResult(part, 200, 'test', true);
    const item = archivedToolResult(part);
    expect(recallHandlesIn(shortened.output as string)).toEqual([item.handle]);
    expect(shortened.output).toContain(`; ${recallHint(item)} for the whole output ...]`);
    expect(item).toMatchObject({ label: 'bash output', text: part.output });
    expect(recallHandlesIn(shortenToolResult(part, 200, 'test').output as string)).toEqual([]);
  });
});

describe('archivedChanges', () => {
  it('lists each replaced result or input whose replacement names its handle, and nothing else', () => {
    const call = calls('a', 'b');
    const original: Message[] = [user('task'), call, long('a'), long('b')];
    const cleared: AssistantMessage = {
      ...call,
      content: [
        {
          ...(call.content[0] as Extract<AssistantMessage['content'][number], { type: 'tool-call' }>),
          input: {
            omitted: recallHint(archivedToolInput(call.content[0] as never)),
          },
        },
        call.content[1]!,
      ],
    };
    const changed: Message[] = [
      original[0]!,
      cleared,
      withPart(long('a'), shortenToolResult(long('a').content[0]!, 100, 'test', true)),
      // Replaced without naming a handle: not archived.
      withPart(long('b'), withShortenedOutput(long('b').content[0]!, '[gone]', 'test')),
    ];
    expect(archivedChanges(original, changed)).toEqual([
      archivedToolInput(call.content[0] as never),
      archivedToolResult(long('a').content[0]!),
    ]);
    expect(archivedChanges(original, [...original])).toEqual([]);
    expect(archivedChanges([results('c')], [results('c')])).toEqual([]);
  });
});
