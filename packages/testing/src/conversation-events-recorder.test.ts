import { type CompactionEvent, ContextOverflowError, EventEmitter } from '@compaction/core';
import type { ConversationLoopEvents } from '@compaction/provider-utils';
import { describe, expect, it } from 'vitest';
import { recordConversationEvents } from './conversation-events-recorder.js';

describe('recordConversationEvents', () => {
  it('collects every event by kind, in order', () => {
    const emitter = new EventEmitter<ConversationLoopEvents<{ body: number }, string>>();
    const recorded = recordConversationEvents(emitter);
    const event = { trigger: 'auto' } as CompactionEvent;
    const error = new ContextOverflowError({ provider: 'test' });
    emitter.emit('request', { step: 1, attempt: 1, body: { body: 1 } });
    emitter.emit('overflow', { step: 1, error });
    emitter.emit('compaction', { step: 1, event });
    emitter.emit('request', { step: 1, attempt: 2, body: { body: 2 } });
    emitter.emit('response', { step: 1, response: 'answer', inputTokens: undefined });
    expect(recorded).toEqual({
      compactions: [{ step: 1, event }],
      overflows: [{ step: 1, error }],
      requests: [
        { step: 1, attempt: 1, body: { body: 1 } },
        { step: 1, attempt: 2, body: { body: 2 } },
      ],
      responses: [{ step: 1, response: 'answer', inputTokens: undefined }],
    });
  });
});
