import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesRequestArbitrary } from './anthropic-messages-request-arbitrary.js';
import { anthropicMessagesViolations } from './anthropic-messages-violations.js';
import { compactedRequestViolations, type ProviderRequestFormat } from './compacted-request-violations.js';
import type { ContractViolation } from './contract-violation.js';
import type { JSONRecord } from './json-record.js';
import { openAIChatRequestArbitrary } from './openai-chat-request-arbitrary.js';
import { openAIChatViolations } from './openai-chat-violations.js';
import { openAIResponsesRequestArbitrary } from './openai-responses-request-arbitrary.js';
import { openAIResponsesViolations } from './openai-responses-violations.js';
import type { ProviderRequestArbitrarySettings } from './provider-request-arbitrary-settings.js';

// biome-ignore lint/suspicious/noExplicitAny: tests reach into plain JSON requests to break them.
type Request = any;

const formats: Array<{
  format: ProviderRequestFormat;
  arbitrary: (settings?: ProviderRequestArbitrarySettings) => fc.Arbitrary<JSONRecord>;
  validate: (request: unknown) => ContractViolation[];
}> = [
  {
    format: 'anthropic',
    arbitrary: anthropicMessagesRequestArbitrary,
    validate: anthropicMessagesViolations,
  },
  { format: 'openai-chat', arbitrary: openAIChatRequestArbitrary, validate: openAIChatViolations },
  {
    format: 'openai-responses',
    arbitrary: openAIResponsesRequestArbitrary,
    validate: openAIResponsesViolations,
  },
];

/** Every `type` value at any depth, with `role:` entries for message roles. */
function typesIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) typesIn(item, found);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as JSONRecord;
    if (typeof record.type === 'string') found.add(record.type);
    if (typeof record.role === 'string') found.add(`role:${record.role}`);
    for (const [key, inner] of Object.entries(record)) {
      if (key !== 'type' && typeof inner === 'object') typesIn(inner, found);
    }
  }
  return found;
}

function typesAcross(arbitrary: fc.Arbitrary<JSONRecord>): Set<string> {
  const found = new Set<string>();
  for (const request of fc.sample(arbitrary, { numRuns: 80, seed: 20_240_601 })) typesIn(request, found);
  return found;
}

describe('the request generators and the validators agree', () => {
  for (const { format, arbitrary, validate } of formats) {
    it(`every generated ${format} request keeps its contract, and compacting it to itself keeps every rule`, () => {
      fc.assert(
        fc.property(arbitrary(), (request) => {
          expect(validate(request)).toEqual([]);
          expect(compactedRequestViolations(format, request, structuredClone(request))).toEqual([]);
        }),
        { numRuns: 300 },
      );
    });

    it(`${format}: validators and the compaction check report, never throw, on any JSON`, () => {
      const shaped = format === 'openai-responses' ? 'input' : 'messages';
      const anyRequest = fc.oneof(
        fc.jsonValue(),
        fc.dictionary(fc.constantFrom(shaped, 'system', 'tools', 'thinking', 'instructions'), fc.jsonValue()),
        fc.record({ [shaped]: fc.array(fc.jsonValue(), { maxLength: 6 }) }),
      );
      fc.assert(
        fc.property(anyRequest, anyRequest, (original, compacted) => {
          for (const violation of [
            ...validate(compacted),
            ...compactedRequestViolations(format, original, compacted),
          ]) {
            expect(typeof violation.rule).toBe('string');
            expect(typeof violation.path).toBe('string');
            expect(typeof violation.message).toBe('string');
          }
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe('the generated requests hold every type the installed SDKs define', () => {
  it('anthropic: every content block type, nested result and citation types, system messages', () => {
    const found = typesAcross(anthropicMessagesRequestArbitrary());
    const expected = [
      'text',
      'image',
      'document',
      'search_result',
      'thinking',
      'redacted_thinking',
      'tool_use',
      'tool_result',
      'server_tool_use',
      'web_search_tool_result',
      'web_fetch_tool_result',
      'code_execution_tool_result',
      'bash_code_execution_tool_result',
      'text_editor_code_execution_tool_result',
      'tool_search_tool_result',
      'container_upload',
      'mcp_tool_use',
      'mcp_tool_result',
      'tool_reference',
      'browser_state',
      'char_location',
      'page_location',
      'content_block_location',
      'search_result_location',
      'web_search_result_location',
      'base64',
      'url',
      'file',
      'content',
      'web_search_result',
      'web_search_tool_result_error',
      'web_fetch_result',
      'web_fetch_tool_result_error',
      'code_execution_result',
      'encrypted_code_execution_result',
      'code_execution_tool_result_error',
      'code_execution_output',
      'bash_code_execution_result',
      'bash_code_execution_output',
      'bash_code_execution_tool_result_error',
      'text_editor_code_execution_view_result',
      'text_editor_code_execution_create_result',
      'text_editor_code_execution_str_replace_result',
      'text_editor_code_execution_tool_result_error',
      'tool_search_tool_search_result',
      'tool_search_tool_result_error',
      'code_execution_20260120',
      'ephemeral',
      'enabled',
      'adaptive',
      'role:system',
      'role:user',
      'role:assistant',
    ];
    expect(expected.filter((type) => !found.has(type))).toEqual([]);
  });

  it('openai-chat: every role, content part and tool call type', () => {
    const found = typesAcross(openAIChatRequestArbitrary());
    const expected = [
      'role:system',
      'role:developer',
      'role:user',
      'role:assistant',
      'role:tool',
      'role:function',
      'text',
      'image_url',
      'input_audio',
      'file',
      'refusal',
      'function',
      'custom',
    ];
    expect(expected.filter((type) => !found.has(type))).toEqual([]);
    const requests = fc.sample(openAIChatRequestArbitrary(), { numRuns: 80, seed: 20_240_601 });
    const assistants = requests.flatMap((request: Request) =>
      request.messages.filter((m: Request) => m.role === 'assistant'),
    );
    expect(assistants.some((message: Request) => message.function_call !== undefined)).toBe(true);
    expect(assistants.some((message: Request) => message.audio !== undefined)).toBe(true);
    expect(assistants.some((message: Request) => typeof message.refusal === 'string')).toBe(true);
  });

  it('openai-responses: every input item type, content part and annotation', () => {
    const found = typesAcross(openAIResponsesRequestArbitrary());
    const expected = [
      'message',
      'reasoning',
      'function_call',
      'function_call_output',
      'custom_tool_call',
      'custom_tool_call_output',
      'computer_call',
      'computer_call_output',
      'local_shell_call',
      'local_shell_call_output',
      'shell_call',
      'shell_call_output',
      'apply_patch_call',
      'apply_patch_call_output',
      'web_search_call',
      'file_search_call',
      'code_interpreter_call',
      'image_generation_call',
      'mcp_list_tools',
      'mcp_approval_request',
      'mcp_approval_response',
      'mcp_call',
      'tool_search_call',
      'tool_search_output',
      'program',
      'program_output',
      'additional_tools',
      'compaction',
      'compaction_trigger',
      'item_reference',
      'input_text',
      'input_image',
      'input_file',
      'output_text',
      'refusal',
      'url_citation',
      'file_citation',
      'container_file_citation',
      'file_path',
      'summary_text',
      'reasoning_text',
      'computer_screenshot',
      'role:user',
      'role:assistant',
      'role:system',
      'role:developer',
    ];
    expect(expected.filter((type) => !found.has(type))).toEqual([]);
    const items = fc
      .sample(openAIResponsesRequestArbitrary(), { numRuns: 80, seed: 20_240_601 })
      .flatMap((request: Request) => request.input);
    // Messages come as easy input messages (no type) and as typed input and output messages.
    expect(items.some((item: Request) => item.role !== undefined && item.type === undefined)).toBe(true);
    expect(items.some((item: Request) => item.type === 'message' && item.role === 'user')).toBe(true);
    expect(
      items.some((item: Request) => item.type === 'message' && item.role === 'assistant' && item.id),
    ).toBe(true);
    expect(
      items.some((item: Request) => typeof item.encrypted_content === 'string' && item.type === 'reasoning'),
    ).toBe(true);
  });
});

describe('the validators catch broken generated requests', () => {
  it('anthropic: a tool result answering a dropped call, and a caller whose server tool was dropped', () => {
    fc.assert(
      fc.property(
        anthropicMessagesRequestArbitrary({ maxResultLength: 200 }),
        fc.nat(),
        (request: Request, pick) => {
          const results = request.messages.flatMap((message: Request) =>
            Array.isArray(message.content)
              ? message.content.filter((block: Request) => block.type === 'tool_result')
              : [],
          );
          fc.pre(results.length > 0);
          results[pick % results.length].tool_use_id = 'toolu_dropped';
          expect(anthropicMessagesViolations(request).map((violation) => violation.rule)).toContain(
            'anthropic.tool-result-has-call',
          );
        },
      ),
      { numRuns: 100 },
    );
    const withCallers = fc
      .sample(anthropicMessagesRequestArbitrary({ maxResultLength: 200, minRounds: 12 }), {
        numRuns: 40,
        seed: 5,
      })
      .filter((request: Request) => JSON.stringify(request).includes('"caller"'));
    expect(withCallers.length).toBeGreaterThan(0);
    for (const request of withCallers as Request[]) {
      for (const message of request.messages) {
        if (Array.isArray(message.content)) {
          message.content = message.content.filter(
            (block: Request) => !(block.type === 'server_tool_use' && block.name === 'code_execution'),
          );
        }
      }
      expect(anthropicMessagesViolations(request).map((violation) => violation.rule)).toContain(
        'anthropic.caller-refers-to-server-tool',
      );
    }
  });

  it('openai-chat: a dropped tool message leaves its call unanswered', () => {
    fc.assert(
      fc.property(
        openAIChatRequestArbitrary({ maxResultLength: 200 }),
        fc.nat(),
        (request: Request, pick) => {
          const tools = request.messages.flatMap((message: Request, index: number) =>
            message.role === 'tool' ? [index] : [],
          );
          fc.pre(tools.length > 0);
          request.messages.splice(tools[pick % tools.length], 1);
          expect(openAIChatViolations(request).map((violation) => violation.rule)).toContain(
            'openai-chat.tool-calls-answered',
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('openai-responses: an output whose call was dropped', () => {
    fc.assert(
      fc.property(
        openAIResponsesRequestArbitrary({ maxResultLength: 200 }),
        fc.nat(),
        (request: Request, pick) => {
          fc.pre(!request.input.some((item: Request) => item.type === 'item_reference'));
          const answered = new Set(
            request.input
              .filter((item: Request) => item.type?.endsWith('_output'))
              .map((item: Request) => item.call_id ?? item.id),
          );
          const calls = request.input.flatMap((item: Request, index: number) =>
            item.type !== 'local_shell_call_output' &&
            answered.has(item.call_id) &&
            !item.type.endsWith('_output')
              ? [index]
              : [],
          );
          fc.pre(calls.length > 0);
          request.input.splice(calls[pick % calls.length], 1);
          expect(openAIResponsesViolations(request).map((violation) => violation.rule)).toContain(
            'openai-responses.output-has-call',
          );
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('generator settings', () => {
  it('thinking on opens every Anthropic assistant message with thinking; off leaves none', () => {
    for (const request of fc.sample(anthropicMessagesRequestArbitrary({ thinking: true }), {
      numRuns: 20,
      seed: 3,
    })) {
      expect((request as Request).thinking).toBeDefined();
      for (const message of (request as Request).messages.filter((m: Request) => m.role === 'assistant')) {
        expect(['thinking', 'redacted_thinking']).toContain(message.content[0].type);
      }
    }
    for (const request of fc.sample(anthropicMessagesRequestArbitrary({ thinking: false }), {
      numRuns: 20,
      seed: 3,
    })) {
      expect(typesIn(request).has('thinking')).toBe(false);
      expect(typesIn(request).has('redacted_thinking')).toBe(false);
    }
    for (const request of fc.sample(openAIResponsesRequestArbitrary({ thinking: false }), {
      numRuns: 20,
      seed: 3,
    })) {
      expect(typesIn(request).has('reasoning')).toBe(false);
    }
  });

  it('results stay within maxResultLength, rounds within their bounds, and tool loops end the request when asked', () => {
    const settings = { maxResultLength: 300, minRounds: 5, maxRounds: 6, endsInToolLoop: true };
    for (const request of fc.sample(anthropicMessagesRequestArbitrary(settings), {
      numRuns: 20,
      seed: 9,
    }) as Request[]) {
      const results = request.messages.flatMap((message: Request) =>
        Array.isArray(message.content)
          ? message.content.filter((block: Request) => block.type === 'tool_result')
          : [],
      );
      for (const result of results) {
        const text = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
        expect(text.length).toBeLessThanOrEqual(typeof result.content === 'string' ? 300 : 1_000);
      }
      expect(request.messages.at(-1).content[0].type).toBe('tool_result');
      expect(
        request.messages.filter((message: Request) => message.role === 'assistant').length,
      ).toBeGreaterThanOrEqual(5);
    }
    for (const request of fc.sample(openAIChatRequestArbitrary(settings), {
      numRuns: 20,
      seed: 9,
    }) as Request[]) {
      expect(request.messages.at(-1).role).toBe('tool');
    }
    for (const request of fc.sample(openAIResponsesRequestArbitrary(settings), {
      numRuns: 20,
      seed: 9,
    }) as Request[]) {
      const last = request.input.filter((item: Request) => item.type !== 'compaction_trigger').at(-1);
      expect(last.type).toMatch(/_output$/);
    }
  });

  it('results reach tens of kilobytes by default', () => {
    const lengths = fc
      .sample(openAIChatRequestArbitrary(), { numRuns: 40, seed: 11 })
      .flatMap((request: Request) => request.messages.filter((m: Request) => m.role === 'tool'))
      .map((message: Request) => JSON.stringify(message.content).length);
    expect(Math.min(...lengths)).toBeLessThan(100);
    expect(Math.max(...lengths)).toBeGreaterThan(10_000);
  });
});
