import { describe, expect, it } from 'vitest';
import { openAIResponsesRequest } from '../__fixtures__/provider-contract-requests.js';
import { openAIResponsesViolations } from './openai-responses-violations.js';

// biome-ignore lint/suspicious/noExplicitAny: tests reach into plain JSON requests to break them.
type Request = any;

/** Each case takes the valid request and breaks exactly one rule. */
const cases: Array<{ rule: string; breaks: (request: Request) => void }> = [
  {
    rule: 'openai-responses.request-shape',
    breaks: (request) => request.input.push({ type: 'function_call_output', output: 'no call id' }),
  },
  {
    rule: 'openai-responses.output-has-call',
    breaks: (request) =>
      request.input.splice(5, 0, { type: 'function_call_output', call_id: 'call_dropped', output: 'orphan' }),
  },
  {
    rule: 'openai-responses.one-output-per-call',
    breaks: (request) =>
      request.input.splice(5, 0, { type: 'function_call_output', call_id: 'call_1', output: 'again' }),
  },
  {
    rule: 'openai-responses.call-answered',
    breaks: (request) =>
      request.input.splice(6, 0, { type: 'shell_call', call_id: 'call_2', action: { commands: ['ls'] } }),
  },
  {
    rule: 'openai-responses.caller-refers-to-program',
    breaks: (request) => {
      request.input[3].caller = { type: 'program', caller_id: 'call_program' };
    },
  },
  {
    rule: 'openai-responses.mcp-approval-has-request',
    breaks: (request) =>
      request.input.push({
        type: 'mcp_approval_response',
        approval_request_id: 'mcpr_dropped',
        approve: true,
      }),
  },
  {
    rule: 'openai-responses.reasoning-followed',
    breaks: (request) => request.input.splice(6, 1),
  },
  {
    rule: 'openai-responses.unique-ids',
    breaks: (request) => {
      request.input[6].id = 'fc_1';
    },
  },
  {
    rule: 'openai-responses.compaction-trigger-last',
    breaks: (request) => request.input.splice(7, 0, { type: 'compaction_trigger' }),
  },
];

describe('openAIResponsesViolations', () => {
  for (const { rule, breaks } of cases) {
    it(`reports ${rule} and only it`, () => {
      const request = openAIResponsesRequest();
      expect(openAIResponsesViolations(request)).toEqual([]);
      breaks(request);
      const violations = openAIResponsesViolations(request);
      expect(violations.length).toBeGreaterThan(0);
      expect(new Set(violations.map((violation) => violation.rule))).toEqual(new Set([rule]));
    });
  }

  it('reports an output before its call, an output of another kind, and reasoning before a user message', () => {
    const request: Request = openAIResponsesRequest();
    const [output] = request.input.splice(4, 1);
    request.input.splice(2, 0, output);
    expect(openAIResponsesViolations(request).map((violation) => violation.rule)).toEqual([
      'openai-responses.output-has-call',
      'openai-responses.call-answered',
    ]);
    const mismatched: Request = openAIResponsesRequest();
    mismatched.input[4].type = 'custom_tool_call_output';
    expect(openAIResponsesViolations(mismatched).map((violation) => violation.rule)).toEqual([
      'openai-responses.output-has-call',
      'openai-responses.call-answered',
    ]);
    const beforeUser: Request = openAIResponsesRequest();
    beforeUser.input.splice(7, 0, { type: 'reasoning', id: 'rs_3', summary: [] });
    expect(openAIResponsesViolations(beforeUser)[0]?.message).toMatch(/followed by a user message/);
  });

  it('lets outputs and approvals answer stored items when the request continues a stored response', () => {
    const request: Request = openAIResponsesRequest();
    request.input.push(
      { type: 'function_call_output', call_id: 'call_from_previous_response', output: 'ok' },
      { type: 'mcp_approval_response', approval_request_id: 'mcpr_previous', approve: false },
    );
    expect(openAIResponsesViolations(request).map((violation) => violation.rule)).toContain(
      'openai-responses.output-has-call',
    );
    request.previous_response_id = 'resp_1';
    expect(openAIResponsesViolations(request)).toEqual([]);
    delete request.previous_response_id;
    request.input.unshift({ type: 'item_reference', id: 'fc_stored' });
    expect(openAIResponsesViolations(request)).toEqual([]);
  });

  it('takes a string input, passes unknown item types and reports malformed requests without throwing', () => {
    expect(openAIResponsesViolations({ model: 'gpt-5', input: 'Hello' })).toEqual([]);
    const request: Request = openAIResponsesRequest();
    request.input.push({ type: 'hologram_call', call_id: 'call_x' });
    expect(openAIResponsesViolations(request)).toEqual([]);
    for (const malformed of [
      null,
      [],
      { input: 4 },
      { input: [7] },
      { input: [{ role: 'robot', content: 'x' }] },
    ]) {
      expect(openAIResponsesViolations(malformed).map((violation) => violation.rule)).toContain(
        'openai-responses.request-shape',
      );
    }
  });
});
