import { describe, expect, it } from 'vitest';
import { openAIChatRequest } from '../__fixtures__/provider-contract-requests.js';
import { openAIChatViolations } from './openai-chat-violations.js';

// biome-ignore lint/suspicious/noExplicitAny: tests reach into plain JSON requests to break them.
type Request = any;

/** Each case takes the valid request and breaks exactly one rule. */
const cases: Array<{ rule: string; breaks: (request: Request) => void }> = [
  {
    rule: 'openai-chat.request-shape',
    breaks: (request) => request.messages.push({ role: 'robot', content: 'beep' }),
  },
  {
    rule: 'openai-chat.content-part-allowed',
    breaks: (request) => {
      request.messages[0].content = [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }];
    },
  },
  {
    rule: 'openai-chat.assistant-content-required',
    breaks: (request) => request.messages.splice(7, 0, { role: 'assistant' }),
  },
  {
    rule: 'openai-chat.tool-message-follows-call',
    breaks: (request) =>
      request.messages.splice(7, 0, { role: 'tool', tool_call_id: 'call_1', content: 'late' }),
  },
  {
    rule: 'openai-chat.tool-calls-answered',
    breaks: (request) =>
      request.messages[2].tool_calls.push({
        id: 'call_2',
        type: 'custom',
        custom: { name: 'apply_diff', input: '+x' },
      }),
  },
  {
    rule: 'openai-chat.unique-tool-call-ids',
    breaks: (request) =>
      request.messages.splice(
        7,
        0,
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'custom', custom: { name: 'x', input: '' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'again' },
      ),
  },
  {
    rule: 'openai-chat.function-message-follows-call',
    breaks: (request) => {
      request.messages[5].name = 'read_file';
    },
  },
];

describe('openAIChatViolations', () => {
  for (const { rule, breaks } of cases) {
    it(`reports ${rule} and only it`, () => {
      const request = openAIChatRequest();
      expect(openAIChatViolations(request)).toEqual([]);
      breaks(request);
      const violations = openAIChatViolations(request);
      expect(violations.length).toBeGreaterThan(0);
      expect(new Set(violations.map((violation) => violation.rule))).toEqual(new Set([rule]));
    });
  }

  it('asks every call to be answered before the next message that is not a tool message', () => {
    const request: Request = openAIChatRequest();
    // The answer moved between the call and its tool message.
    const [answer] = request.messages.splice(6, 1);
    request.messages.splice(3, 0, answer);
    expect(openAIChatViolations(request).map((violation) => violation.rule)).toEqual([
      'openai-chat.tool-calls-answered',
      'openai-chat.tool-message-follows-call',
    ]);
  });

  it('accepts refusals and audio answers without content, and passes unknown part and call types', () => {
    const request: Request = openAIChatRequest();
    request.messages.splice(
      7,
      0,
      { role: 'user', content: [{ type: 'text', text: 'Again' }, { type: 'hologram' }] },
      { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
      { role: 'user', content: 'Say it' },
      { role: 'assistant', content: null, audio: { id: 'audio_1' } },
      { role: 'user', content: 'Go on' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'hologram_call' }] },
      { role: 'tool', tool_call_id: 'call_9', content: 'done' },
    );
    expect(openAIChatViolations(request)).toEqual([]);
  });

  it('reports malformed requests without throwing', () => {
    for (const malformed of [null, 3, { messages: {} }, { messages: [] }, { messages: [{ role: 'tool' }] }]) {
      expect(openAIChatViolations(malformed).map((violation) => violation.rule)).toContain(
        'openai-chat.request-shape',
      );
    }
  });
});
