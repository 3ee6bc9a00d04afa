import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect-format.js';

const coreMessage = { role: 'user', content: [{ type: 'text', text: 'hi' }] };

describe('detectFormat', () => {
  it('recognises each format by what only it has', () => {
    expect(detectFormat([coreMessage])).toBe('core');
    expect(detectFormat({ messages: [coreMessage], note: 1 })).toBe('core');
    expect(detectFormat({ system: 'terse', messages: [{ role: 'user', content: 'hi' }] })).toBe('anthropic');
    expect(
      detectFormat({
        messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x' }] }],
      }),
    ).toBe('anthropic');
    expect(
      detectFormat({
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'x' },
          { role: 'user', content: 'hi' },
        ],
      }),
    ).toBe('openai-chat');
    expect(detectFormat([{ role: 'tool', tool_call_id: 'a', content: 'x' }])).toBe('openai-chat');
    expect(detectFormat({ input: [{ role: 'user', content: 'hi' }] })).toBe('openai-responses');
    expect(detectFormat({ input: 'hello' })).toBe('openai-responses');
    expect(detectFormat([{ type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' }])).toBe(
      'openai-responses',
    );
  });

  it('returns undefined for what is no conversation', () => {
    expect(detectFormat(42)).toBeUndefined();
    expect(detectFormat({ conversation: [] })).toBeUndefined();
    expect(detectFormat([{ role: 'robot', content: [] }])).toBeUndefined();
    expect(detectFormat([])).toBeUndefined();
  });
});
