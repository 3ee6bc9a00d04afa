import { CompactionError, createFastEstimator, type Message } from '@compaction/core';
import fc from 'fast-check';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import type { TiktokenEncodingName } from './tiktoken-encoding-for-model.js';
import { createTiktokenEstimator } from './tiktoken-estimator.js';

/** The real `get_encoding`, recording what it creates and frees. */
function recordingGetEncoding() {
  const created: TiktokenEncodingName[] = [];
  let freed = 0;
  return {
    created,
    freed: () => freed,
    getEncoding(name: TiktokenEncodingName) {
      created.push(name);
      const encoder = get_encoding(name);
      const free = encoder.free.bind(encoder);
      encoder.free = () => {
        freed++;
        free();
      };
      return encoder;
    },
  };
}

describe('createTiktokenEstimator', () => {
  const o200k = createTiktokenEstimator();
  const cl100k = createTiktokenEstimator({ model: 'gpt-4-turbo' });
  afterAll(() => {
    o200k.dispose();
    cl100k.dispose();
  });

  it('counts exactly with the encoding of the model', () => {
    const text = 'Compaction keeps long conversations inside the context window.';
    const reference = get_encoding('cl100k_base');
    expect(cl100k.encoding).toBe('cl100k_base');
    expect(cl100k.countText(text)).toBe(reference.encode(text).length);
    reference.free();
    expect(o200k.encoding).toBe('o200k_base');
    // CJK is where the two encodings differ most.
    expect(o200k.countText('上下文窗口压缩')).toBeLessThan(cl100k.countText('上下文窗口压缩'));
    expect(o200k.countText('')).toBe(0);
  });

  it('counts special-token strings as ordinary text instead of throwing', () => {
    const text = 'before <|endoftext|> middle <|im_start|>user after';
    const raw = get_encoding('o200k_base');
    expect(() => raw.encode(text)).toThrow();
    raw.free();
    // As text, `<|endoftext|>` is several tokens, not the single special token.
    expect(o200k.countText('<|endoftext|>')).toBeGreaterThan(1);
    expect(o200k.countText(text)).toBeGreaterThan(o200k.countText('before  middle user after'));
  });

  it('creates the encoder on first use and frees it on dispose', () => {
    const recording = recordingGetEncoding();
    const estimator = createTiktokenEstimator({
      encoding: 'cl100k_base',
      getEncoding: recording.getEncoding,
    });
    expect(recording.created).toEqual([]);
    expect(estimator.countText('hello world')).toBe(2);
    estimator.countText('again');
    expect(recording.created).toEqual(['cl100k_base']);
    estimator.dispose();
    expect(recording.freed()).toBe(1);
    estimator.dispose();
    expect(recording.freed()).toBe(1);
    // Counting after dispose creates a fresh encoder.
    expect(estimator.countText('hello world')).toBe(2);
    expect(recording.created).toEqual(['cl100k_base', 'cl100k_base']);
    estimator.dispose();
  });

  it('adds message overhead to the exact text count', () => {
    const message: Message = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading the file.' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'read_file', input: { path: 'src/index.ts' } },
      ],
    };
    const text =
      o200k.countText('Reading the file.') +
      o200k.countText('read_file') +
      o200k.countText('{"path":"src/index.ts"}');
    expect(o200k.countMessage(message)).toBeGreaterThan(text);
    const bare = createTiktokenEstimator({ overhead: { message: 0, part: 0, toolCall: 0 } });
    expect(bare.countMessage(message)).toBe(text);
    bare.dispose();
  });

  it('rejects an unknown encoding with a typed error', () => {
    const create = () => createTiktokenEstimator({ encoding: 'p50k_base' as TiktokenEncodingName });
    expect(create).toThrow(CompactionError);
    try {
      create();
    } catch (error) {
      expect(CompactionError.isInstance(error) && error.code).toBe('core/invalid-options');
    }
  });

  it('never throws on any string, lone surrogates included', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.string({ unit: 'grapheme' }),
          fc.constant('\ud800<|endoftext|>\udfff'),
        ),
        (text) => {
          const tokens = o200k.countText(text);
          expect(Number.isInteger(tokens) && tokens >= 0).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('agrees with the fast estimator within its documented tolerance on ordinary text', () => {
    const fast = createFastEstimator();
    const text = [
      'The tool returned 42 results; the agent summarised them and asked the user to confirm.',
      'export function countTokens(messages: Message[]): number { return messages.length * 4; }',
      '{"level":"info","ts":"2026-11-02T10:14:03Z","msg":"request","path":"/users/42","status":200}',
    ].join('\n');
    const exact = o200k.countText(text);
    expect(fast.countText(text)).toBeGreaterThanOrEqual(exact * 0.9);
    expect(fast.countText(text)).toBeLessThanOrEqual(exact * 1.15);
  });
});
