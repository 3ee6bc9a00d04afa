import { describe, expect, it } from 'vitest';
import { assistant, calls, results, system, user } from '../__fixtures__/messages.js';
import { InvalidMessagesError } from '../errors/invalid-messages-error.js';
import { missingResultText, repairHistory } from './repair-history.js';

describe('repairHistory', () => {
  it('returns a valid history untouched, as the same objects', () => {
    const messages = [system('s'), user('u'), calls('a'), results('a'), assistant('ok')];
    const { messages: repaired, repairs } = repairHistory(messages);
    expect(repairs).toEqual([]);
    for (const [index, message] of repaired.entries()) expect(message).toBe(messages[index]);
  });

  it('inserts a placeholder error result for a call with no result', () => {
    const messages = [user('u'), calls('a', 'b'), results('a'), user('next')];
    const { messages: repaired, repairs } = repairHistory(messages);
    expect(repairs).toEqual([{ kind: 'placeholder-result', toolCallId: 'b', index: 1 }]);
    expect(repaired[3]).toMatchObject({
      role: 'tool',
      content: [{ toolCallId: 'b', output: missingResultText, isError: true }],
      metadata: { compaction: { repair: 'placeholder-result' } },
    });
    expect(repaired[4]).toBe(messages[3]);
  });

  it('leaves calls in the last turn alone: their tools may still be running', () => {
    const messages = [user('u'), calls('a')];
    expect(repairHistory(messages).repairs).toEqual([]);
  });

  it('moves a result that arrived after another message back to its call', () => {
    const messages = [user('u'), calls('a'), user('interjection'), results('a')];
    const { messages: repaired, repairs } = repairHistory(messages);
    expect(repairs).toEqual([{ kind: 'moved-result', toolCallId: 'a', index: 3 }]);
    expect(repaired.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });

  it('removes orphaned and duplicate results, or reports orphans when asked', () => {
    const messages = [user('u'), results('ghost'), calls('a'), results('a'), results('a')];
    const { messages: repaired, repairs } = repairHistory(messages);
    expect(repairs.map((repair) => repair.kind)).toEqual([
      'removed-orphaned-result',
      'removed-duplicate-result',
    ]);
    expect(repaired.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(() => repairHistory(messages, { orphanedResults: 'error' })).toThrow(InvalidMessagesError);
  });

  it('reports a result that came before its call when a later one answers the call', () => {
    const messages = [user('u'), results('a'), calls('a'), results('a')];
    const { messages: repaired, repairs } = repairHistory(messages);
    expect(repairs).toEqual([{ kind: 'removed-duplicate-result', toolCallId: 'a', index: 1 }]);
    expect(repaired).toEqual([messages[0], messages[2], messages[3]]);
  });

  it('renames a reused tool call id with its results, and does not mutate its input', () => {
    const messages = Object.freeze([user('u'), calls('a'), results('a'), calls('a'), results('a')]);
    const { messages: repaired, repairs } = repairHistory(messages);
    expect(repairs).toEqual([{ kind: 'renamed-duplicate-call', toolCallId: 'a', index: 3 }]);
    expect(repaired.slice(0, 3)).toEqual(messages.slice(0, 3));
    expect(repaired[3]).toMatchObject({
      content: [{ toolCallId: 'a#2' }],
      metadata: { compaction: { repair: 'edited' } },
    });
    expect(repaired[4]).toMatchObject({ content: [{ toolCallId: 'a#2' }] });
    const damaged = Object.freeze([user('u'), calls('a', 'b'), results('a'), user('x')]);
    expect(() => repairHistory(damaged)).not.toThrow();
  });
});
