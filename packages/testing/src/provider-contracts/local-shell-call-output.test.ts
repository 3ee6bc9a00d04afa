import { describe, expect, it } from 'vitest';
import { compactedRequestViolations } from './compacted-request-violations.js';
import { openAIResponsesViolations } from './openai-responses-violations.js';

// A local shell call's output names its call by `call_id` at runtime (what `@ai-sdk/openai` and the Agents SDK
// send: "The TypedDict definition requires `id` but runtime uses `call_id`", openai-agents-python), or by
// `id` as the SDK's `ResponseInputItem.LocalShellCallOutput` type has it. Both are accepted.

const call = {
  type: 'local_shell_call',
  id: 'lsh_1',
  call_id: 'call_1',
  status: 'completed',
  action: { type: 'exec', command: ['ls'] },
};

const request = (output: Record<string, unknown>, more: unknown[] = []) => ({
  model: 'gpt-5',
  input: [{ role: 'user', content: 'List the files.' }, call, output, ...more],
});

describe('local_shell_call_output', () => {
  it.each([
    ['call_id', { type: 'local_shell_call_output', call_id: 'call_1', output: 'a.ts' }],
    ['id (the SDK type)', { type: 'local_shell_call_output', id: 'call_1', output: 'a.ts' }],
    [
      'its own id and call_id',
      { type: 'local_shell_call_output', id: 'lso_1', call_id: 'call_1', output: 'a.ts' },
    ],
  ])('answers its call by %s', (_name, output) => {
    expect(openAIResponsesViolations(request(output))).toEqual([]);
  });

  it('needs one of the two', () => {
    const violations = openAIResponsesViolations(
      request({ type: 'local_shell_call_output', output: 'a.ts' }),
    );
    expect(violations.map((violation) => violation.rule)).toEqual(['openai-responses.request-shape']);
  });

  it('is paired by call_id: an output of another call has no call, a second output is one too many', () => {
    const other = openAIResponsesViolations(
      request({ type: 'local_shell_call_output', call_id: 'call_2', output: 'a.ts' }),
    ).map((violation) => violation.rule);
    expect(other).toContain('openai-responses.output-has-call');
    const twice = openAIResponsesViolations(
      request({ type: 'local_shell_call_output', call_id: 'call_1', output: 'a.ts' }, [
        { type: 'local_shell_call_output', id: 'call_1', output: 'b.ts' },
      ]),
    ).map((violation) => violation.rule);
    expect(twice).toContain('openai-responses.one-output-per-call');
  });

  it('a compacted request keeping the pair invents nothing', () => {
    const original = request({ type: 'local_shell_call_output', call_id: 'call_1', output: 'a.ts' });
    expect(compactedRequestViolations('openai-responses', original, original)).toEqual([]);
  });
});
