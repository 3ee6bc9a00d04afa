import { describe, expect, it } from 'vitest';
import type { FormatName } from './conversation-format.js';
import { detectFormat, detectFormatOf } from './detect-format.js';

// Request shapes follow the SDKs' request types: `MessageCreateParams` of @anthropic-ai/sdk, and
// `ChatCompletionCreateParams` and `ResponseCreateParams` of openai.

const toolUse = { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } };
const toolResult = { type: 'tool_result', tool_use_id: 'toolu_01', content: '18°C' };
const chatToolCall = {
  id: 'call_1',
  type: 'function',
  function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
};

const anthropicRequests: Array<[string, unknown]> = [
  [
    'model, max_tokens and string contents',
    { model: 'claude-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello, Claude' }] },
  ],
  [
    'string contents and max_tokens, with a model name of no known family',
    { model: 'company-proxy-large', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] },
  ],
  [
    'text blocks only (which are also valid core parts)',
    {
      model: 'claude-opus-4-6',
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    },
  ],
  [
    'a top-level system prompt with cache_control',
    {
      model: 'claude-haiku-4-5',
      max_tokens: 256,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'Hi' }],
    },
  ],
  [
    'tool_use and tool_result blocks',
    {
      model: 'x',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [toolUse] },
        { role: 'user', content: [toolResult] },
      ],
    },
  ],
  [
    'a server tool result block alone, such as the advisor tool result',
    {
      messages: [
        { role: 'user', content: 'Plan the migration.' },
        {
          role: 'assistant',
          content: [
            { type: 'advisor_tool_result', tool_use_id: 'srvtoolu_01', content: { type: 'advisor_result' } },
          ],
        },
      ],
    },
  ],
  [
    'thinking blocks with their signature',
    {
      messages: [
        { role: 'user', content: 'Why?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Let me see.', signature: 'EqQBCgIYAhIM' },
            { type: 'text', text: 'Because.' },
          ],
        },
      ],
    },
  ],
  [
    'a base64 image block',
    {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'text', text: 'What is this?' },
          ],
        },
      ],
    },
  ],
  [
    'a document block',
    {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'A memo.' } },
          ],
        },
      ],
    },
  ],
  [
    'a text block with citations',
    {
      messages: [
        { role: 'user', content: 'Cite it.' },
        { role: 'assistant', content: [{ type: 'text', text: 'As said.', citations: [] }] },
      ],
    },
  ],
  [
    'a server tool',
    {
      model: 'x',
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      messages: [{ role: 'user', content: 'Search.' }],
    },
  ],
  [
    'a client tool with input_schema and tool_choice any',
    {
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'Weather?' }],
    },
  ],
  ['stop_sequences', { stop_sequences: ['\n\nHuman:'], messages: [{ role: 'user', content: 'Hi' }] }],
  [
    'a bare list of messages with Anthropic blocks',
    [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [toolUse] },
    ],
  ],
  [
    'server tool blocks in the history',
    [
      { role: 'user', content: 'Search.' },
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
          { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
        ],
      },
    ],
  ],
];

const chatRequests: Array<[string, unknown]> = [
  [
    'a bare list without tool calls',
    [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'Hello!' },
      { role: 'assistant', content: 'Hi, how can I help?' },
    ],
  ],
  [
    'a bare list of user and assistant messages only',
    [
      { role: 'user', content: 'Hello!' },
      { role: 'assistant', content: 'Hi.' },
    ],
  ],
  [
    'model and developer message',
    {
      model: 'gpt-4o',
      messages: [
        { role: 'developer', content: 'Answer in French.' },
        { role: 'user', content: 'Hello!' },
      ],
    },
  ],
  [
    'max_tokens with an OpenAI model',
    { model: 'gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] },
  ],
  [
    'text parts only (which are also valid core parts) and an OpenAI model',
    { model: 'o3', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] },
  ],
  [
    'tool calls with a null content and a tool message',
    {
      model: 'local-model',
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [chatToolCall] },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
      ],
    },
  ],
  [
    'an image_url part',
    {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
          ],
        },
      ],
    },
  ],
  [
    'an input_audio part',
    {
      messages: [
        {
          role: 'user',
          content: [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }],
        },
      ],
    },
  ],
  [
    'a file part',
    { messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] }] },
  ],
  [
    'function tools and a string tool_choice',
    {
      model: 'llama-3',
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: 'auto',
      messages: [{ role: 'user', content: 'Go.' }],
    },
  ],
  [
    'a Chat-only request field',
    { model: 'mistral-large', max_completion_tokens: 500, messages: [{ role: 'user', content: 'Hi' }] },
  ],
  [
    'no model, no max_tokens and string contents',
    { temperature: 0, messages: [{ role: 'user', content: 'Hi' }] },
  ],
];

const responsesRequests: Array<[string, unknown]> = [
  ['a string input', { model: 'gpt-5', input: 'Tell me a story.' }],
  [
    'instructions and easy input messages',
    { model: 'gpt-5', instructions: 'Be brief.', input: [{ role: 'user', content: 'Hi' }] },
  ],
  [
    'a bare list of typed items',
    [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
    ],
  ],
  [
    'a bare list of messages with input_text parts',
    [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
  ],
  [
    'a bare list with a reasoning item and output_text',
    [
      { role: 'user', content: 'Why?' },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Because.', annotations: [] }],
      },
    ],
  ],
];

const coreInputs: Array<[string, unknown]> = [
  ['a list of core messages', [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]],
  [
    'an object with core messages and other keys',
    { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], note: 1 },
  ],
  [
    'core tool calls, even next to an OpenAI model name',
    {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 't', input: {} }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'a', toolName: 't', output: 'ok' }] },
      ],
    },
  ],
];

describe('detectFormat', () => {
  const expectAll = (cases: Array<[string, unknown]>, format: FormatName) => {
    for (const [name, input] of cases) {
      it(`reads ${name} as ${format}`, () => {
        const detection = detectFormatOf(input);
        expect(detection.format, detection.reason).toBe(format);
        expect(detectFormat(input)).toBe(format);
      });
    }
  };
  expectAll(anthropicRequests, 'anthropic');
  expectAll(chatRequests, 'openai-chat');
  expectAll(responsesRequests, 'openai-responses');
  expectAll(coreInputs, 'core');

  it('names both clues when an input has clues of two formats', () => {
    const mixed = { system: 'x', messages: [{ role: 'tool', tool_call_id: 'a', content: 'x' }] };
    expect(detectFormatOf(mixed)).toEqual({
      format: undefined,
      conflict: true,
      reason:
        'clues of several formats: messages[0] has a "tool_call_id" field (openai-chat) and the request field "system" (anthropic)',
    });
    const blocks = [
      { role: 'assistant', content: [toolUse] },
      { role: 'assistant', content: null, tool_calls: [chatToolCall] },
    ];
    expect(detectFormatOf(blocks)).toMatchObject({ format: undefined, conflict: true });
  });

  it('returns undefined for what is no conversation', () => {
    expect(detectFormat(42)).toBeUndefined();
    expect(detectFormat({ conversation: [] })).toBeUndefined();
    expect(detectFormat([{ role: 'robot', content: [] }])).toBeUndefined();
    expect(detectFormat([])).toBeUndefined();
  });
});
