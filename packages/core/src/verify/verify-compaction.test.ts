import { describe, expect, it } from 'vitest';
import { assistant, calls, results, system, user } from '../__fixtures__/messages.js';
import { withCompactionMetadata } from '../messages/compaction-metadata.js';
import type { Message } from '../messages/message.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { verifyCompaction } from './verify-compaction.js';

const counter = createTokenCounter();
const rules = (
  before: Parameters<typeof verifyCompaction>[0]['before'],
  after: typeof before,
  limit?: number,
) =>
  verifyCompaction({ before, after, counter, ...(limit === undefined ? {} : { limit }) }).map(
    (violation) => violation.rule,
  );

describe('verifyCompaction', () => {
  const head = system('s');
  const task = user('task');
  const call = calls('a');
  const result = results('a');
  const pinned = withCompactionMetadata(assistant('remember this'), { pinned: true });
  const last = user('latest');
  const before = [head, task, call, result, pinned, assistant('x'), last];

  it('accepts a result that keeps every rule', () => {
    expect(rules(before, [head, task, pinned, last])).toEqual([]);
  });

  it('finds a call that lost its result and a result without its call', () => {
    expect(rules(before, [head, task, call, pinned, last])).toEqual(['tool-pairing']);
    expect(rules(before, [head, task, result, pinned, last])).toEqual(['tool-pairing']);
  });

  it('finds dropped system, pinned and latest user messages', () => {
    expect(rules(before, [task, pinned, last])).toEqual(['system-kept']);
    expect(rules(before, [head, task, last])).toEqual(['pinned-kept']);
    expect(rules(before, [head, task, pinned])).toEqual(['latest-user-kept']);
  });

  it('requires a user turn first when the input had one', () => {
    expect(rules(before, [head, pinned, task, last])).toEqual(['starts-with-user']);
  });

  it('requires the whole opening, every message before the first model message, kept and in order', () => {
    // Codex's opening: developer messages (system in core), the environment, then the task.
    const environment = user('<environment_context>cwd: /work</environment_context>');
    const codex = [head, system('developer'), environment, task, call, result, assistant('x'), last];
    expect(rules(codex, [head, codex[1]!, environment, task, last])).toEqual([]);
    expect(rules(codex, [head, codex[1]!, environment, last])).toEqual(['opening-kept']);
    expect(rules(codex, [head, codex[1]!, task, environment, last])).toEqual(['opening-kept']);
    expect(rules(codex, [head, environment, task, last])).toEqual(['system-kept']);
  });

  it('requires new or changed messages to be marked', () => {
    const answer = assistant('x');
    const input = [head, task, answer, last];
    const edited = { ...answer, content: [{ type: 'text' as const, text: 'x (edited)' }] };
    expect(rules(input, [head, task, edited, last])).toEqual(['unmarked-change']);
    expect(rules(input, [head, task, withCompactionMetadata(edited, { kind: 'modified' }), last])).toEqual(
      [],
    );
  });

  it('does not take a user-role summary for the newest user request', () => {
    const summary = withCompactionMetadata(user('summary of earlier work'), { kind: 'summary', round: 1 });
    const withSummary = [head, summary, task, pinned, last];
    expect(rules(withSummary, [head, task, pinned, last])).toEqual([]);
    const summaryLast = [head, task, pinned, summary];
    expect(rules(summaryLast, [head, task, pinned])).toEqual([]);
  });

  it('checks the token limit', () => {
    expect(rules(before, [head, task, pinned, last], 1)).toEqual(['within-limit']);
  });

  describe('reasoning first', () => {
    const thinking = {
      role: 'assistant' as const,
      content: [
        { type: 'reasoning' as const, text: 'plan', signature: 'sig' },
        { type: 'text' as const, text: 'next step' },
      ],
    };
    const answer = assistant('answer');
    const input = [task, answer, user('more'), thinking, last];
    const mark = (message: Message, kind: 'marker' | 'summary') =>
      withCompactionMetadata(message, { kind, round: 1 });

    it('finds a written assistant message put right before reasoning, and accepts a user-role one', () => {
      expect(rules(input, [task, mark(assistant('[1 removed]'), 'marker'), thinking, last])).toEqual([
        'reasoning-first',
      ]);
      expect(rules(input, [task, mark(assistant('summary'), 'summary'), thinking, last])).toEqual([
        'reasoning-first',
      ]);
      expect(rules(input, [task, mark(user('[2 removed]'), 'marker'), thinking, last])).toEqual([]);
    });

    it('finds two input messages brought together by a removal, and accepts a pair that stood together', () => {
      expect(rules(input, [task, answer, thinking, last])).toEqual(['reasoning-first']);
      const together = [task, answer, thinking, last];
      expect(rules(together, together)).toEqual([]);
    });
  });

  it('finds a removal marker at the end of the result', () => {
    const marker = withCompactionMetadata(user('[2 removed]'), { kind: 'marker', round: 1 });
    expect(rules(before, [head, task, pinned, last, marker])).toEqual(['marker-not-last']);
  });
});
