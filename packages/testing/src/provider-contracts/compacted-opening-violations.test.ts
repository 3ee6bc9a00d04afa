import { describe, expect, it } from 'vitest';
import { compactedRequestViolations } from './compacted-request-violations.js';

const text = (value: string) => [{ type: 'input_text', text: value }];

// Codex's opening: two developer messages, the environment in a user message, then the task.
const codexOpening = [
  { type: 'message', role: 'developer', content: text('You are Codex.') },
  {
    type: 'message',
    role: 'developer',
    content: text('<permissions instructions>sandboxed</permissions instructions>'),
  },
  { type: 'message', role: 'user', content: text('<environment_context>cwd: /work</environment_context>') },
  { type: 'message', role: 'user', content: text('Fix the failing test.') },
];

const call = (index: number) => [
  { type: 'function_call', call_id: `call_${index}`, name: 'shell', arguments: '{"command":["ls"]}' },
  { type: 'function_call_output', call_id: `call_${index}`, output: `listing ${index}` },
];

const codexRequest = (input: unknown[]) => ({ model: 'gpt-5-codex', input });

describe('compacted.opening-kept', () => {
  const original = codexRequest([...codexOpening, ...call(1), ...call(2), ...call(3)]);

  it('accepts a compaction that keeps the whole opening, a note after it', () => {
    const note = { role: 'user', content: '[2 earlier messages skipped to fit the context window.]' };
    const compacted = codexRequest([...codexOpening, note, ...call(2), ...call(3)]);
    expect(compactedRequestViolations('openai-responses', original, compacted)).toEqual([]);
  });

  it('reports the task replaced by a note, though the environment message is kept (Codex before the fix)', () => {
    const note = { role: 'user', content: '[1 earlier message skipped to fit the context window.]' };
    const compacted = codexRequest([...codexOpening.slice(0, 3), note, ...call(3)]);
    expect(compactedRequestViolations('openai-responses', original, compacted)).toEqual([
      {
        rule: 'compacted.opening-kept',
        path: 'input[3]',
        message: 'entry 3 of the opening (before the first model turn) is not kept verbatim and in order',
      },
      expect.objectContaining({ rule: 'compacted.newest-user-request-kept' }),
    ]);
  });

  it('reports a note merged into the first user message of an Anthropic request', () => {
    const before = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Fix the failing test.' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
      ],
    };
    const merged = {
      ...before,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Fix the failing test.' },
            { type: 'text', text: '[1 earlier message skipped to fit the context window.]' },
            { type: 'text', text: 'Go on.' },
          ],
        },
      ],
    };
    expect(compactedRequestViolations('anthropic', before, merged).map(({ rule }) => rule)).toContain(
      'compacted.opening-kept',
    );
  });
});
