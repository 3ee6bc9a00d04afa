import { describe, expect, it } from 'vitest';
import { createMessageEstimator, defaultMessageOverhead } from './message-estimator.js';

describe('createMessageEstimator', () => {
  const estimator = createMessageEstimator({ name: 'length', countText: (text) => text.length });

  it('counts tool names and JSON inputs, tool outputs and overheads', () => {
    const tokens = estimator.countMessage({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'bash', input: { command: 'ls' } }],
    });
    expect(tokens).toBe(
      defaultMessageOverhead.message + defaultMessageOverhead.toolCall + 4 + '{"command":"ls"}'.length,
    );
    const result = estimator.countMessage({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'a', toolName: 'bash', output: [{ type: 'text', text: 'abc' }] },
      ],
    });
    expect(result).toBe(
      defaultMessageOverhead.message + defaultMessageOverhead.toolResult + defaultMessageOverhead.part + 3,
    );
  });

  it('counts images by the flat documented rule', () => {
    const tokens = estimator.countMessage({
      role: 'user',
      content: [{ type: 'image', image: 'AAAA', mediaType: 'image/png' }],
    });
    expect(tokens).toBe(
      defaultMessageOverhead.message + defaultMessageOverhead.part + defaultMessageOverhead.image,
    );
  });

  it('treats special-token strings as ordinary text', () => {
    expect(estimator.countText('<|endoftext|>')).toBe('<|endoftext|>'.length);
  });
});
