import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { decodeOne } from '../convert/convert-messages.js';
import { ConversationTracker } from './conversation-tracker.js';

const system: ModelMessage = { role: 'system', content: 'You are a careful coding agent.' };
const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const assistant = (text: string): ModelMessage => ({ role: 'assistant', content: text });

const newTracker = () =>
  new ConversationTracker<ModelMessage>((message, index) => decodeOne(message, index, 'model'));

/** Compacts a conversation's view to its last message, as a strategy that keeps only the newest would. */
function compactToLast(tracker: ConversationTracker<ModelMessage>, items: ModelMessage[], id?: string) {
  const view = tracker.view(items, id);
  tracker.commit(view, view.messages.slice(-1));
  return view;
}

describe('ConversationTracker', () => {
  it('keeps two conversations that share a system prompt apart', () => {
    const tracker = newTracker();
    const first = [system, user('Fix the parser.')];
    const second = [system, user('Write the release notes.')];
    compactToLast(tracker, first);
    compactToLast(tracker, second);
    const firstAgain = tracker.view([...first, assistant('Done.'), user('Thanks.')]);
    expect(firstAgain.replaced).toBe(true);
    expect(firstAgain.messages.map((message) => message.content)).toEqual([
      [{ type: 'text', text: 'Fix the parser.' }],
      [{ type: 'text', text: 'Done.' }],
      [{ type: 'text', text: 'Thanks.' }],
    ]);
    const secondAgain = tracker.view([...second, assistant('Here they are.')]);
    expect(secondAgain.replaced).toBe(true);
    expect(secondAgain.messages[0]!.content).toEqual([{ type: 'text', text: 'Write the release notes.' }]);
  });

  it('keeps conversations with explicit ids apart even when their messages are equal', () => {
    const tracker = newTracker();
    const items = [system, user('Hello.')];
    compactToLast(tracker, items, 'first');
    expect(tracker.view([...items, assistant('Hi.')], 'second').replaced).toBe(false);
    expect(tracker.view([...items, assistant('Hi.')], 'first').replaced).toBe(true);
  });

  it('starts over when the caller changed an earlier message, rather than reusing another history', () => {
    const tracker = newTracker();
    compactToLast(tracker, [system, user('Plan the migration.')]);
    expect(tracker.view([system, user('Plan the rollback.'), assistant('Sure.')]).replaced).toBe(false);
  });
});
