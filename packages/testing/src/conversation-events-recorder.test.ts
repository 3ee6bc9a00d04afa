import type { ConversationLoopEvents } from '@compaction/agent-loop';
import { type CompactionEvent, ContextOverflowError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { recordConversationEvents } from './conversation-events-recorder.js';

describe('recordConversationEvents', () => {
  it('collects every event by kind, in order', () => {
    type Events = ConversationLoopEvents<{ body: number }, string>;
    const listeners = new Map<keyof Events, (payload: never) => void>();
    const emitter = {
      on<Name extends keyof Events>(name: Name, listener: (payload: Events[Name]) => void) {
        listeners.set(name, listener as (payload: never) => void);
        return () => listeners.delete(name);
      },
      emit<Name extends keyof Events>(name: Name, payload: Events[Name]) {
        (listeners.get(name) as ((payload: Events[Name]) => void) | undefined)?.(payload);
      },
    };
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
