import type { ToolResultPart } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import {
  isShortenedPart,
  shortenToolResult,
  toolResultCharacters,
  withShortenedOutput,
} from './shorten-tool-result.js';

const result = (output: ToolResultPart['output'], extra: Partial<ToolResultPart> = {}): ToolResultPart => ({
  type: 'tool-result',
  toolCallId: 'call_1',
  toolName: 'bash',
  output,
  ...extra,
});

describe('shortenToolResult', () => {
  it('keeps the start and the end around a note, marks the part and keeps the error flag', () => {
    const text = Array.from({ length: 400 }, (_, index) => `line ${index}`).join('\n');
    const original = result(text, { isError: true, metadata: { provider: { cache: true } } });
    const shortened = shortenToolResult(original, 300, 'pruning');
    const output = shortened.output as string;
    expect(output.startsWith('line 0\n')).toBe(true);
    expect(output.endsWith('line 399')).toBe(true);
    expect(output).toMatch(/\[\.\.\. \d+ characters omitted \.\.\.\]/);
    expect(output.length).toBeLessThan(400);
    expect(shortened).toMatchObject({ toolCallId: 'call_1', toolName: 'bash', isError: true });
    expect(shortened.metadata).toEqual({
      compaction: { kind: 'modified', strategy: 'pruning' },
      provider: { cache: true },
    });
    expect(isShortenedPart(shortened)).toBe(true);
    expect(isShortenedPart(original)).toBe(false);
    expect(original.output).toBe(text);
  });

  it('joins the text of a result in parts and replaces images and files with a note', () => {
    const parts = result([
      { type: 'text', text: 'a'.repeat(500) },
      { type: 'image', image: 'AAAA', mediaType: 'image/png' },
      { type: 'text', text: 'b'.repeat(500) },
    ]);
    expect(toolResultCharacters(parts)).toBe(1001 - 1);
    const output = shortenToolResult(parts, 90, 'sliding-window').output as string;
    expect(output.startsWith('a'.repeat(60))).toBe(true);
    expect(output).toContain('b'.repeat(30));
    expect(output.endsWith('[1 image or file parts omitted]')).toBe(true);
  });

  it('replaces the output as given with withShortenedOutput', () => {
    expect(withShortenedOutput(result('long'), '[gone]', 'x')).toEqual({
      type: 'tool-result',
      toolCallId: 'call_1',
      toolName: 'bash',
      output: '[gone]',
      metadata: { compaction: { kind: 'modified', strategy: 'x' } },
    });
  });
});
