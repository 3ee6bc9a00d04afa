// Requests of the OpenAPI document's examples, one per format, written after the SDKs' own request types
// (`MessageCreateParams` of @anthropic-ai/sdk; `ChatCompletionCreateParams` and `ResponseCreateParams` of
// openai). docs/serve.md sends the same ones with curl; tests send both and compare the answers.

const weatherParameters = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};

/** An Anthropic Messages request with a system prompt, a tool, extended thinking, tool calls and results. */
export const anthropicRequest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 4096,
  thinking: { type: 'enabled', budget_tokens: 2048 },
  system: 'You are a coding agent. Use the tools to inspect the repository.',
  tools: [
    {
      name: 'read_file',
      description: 'Read a file of the repository',
      input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  ],
  messages: [
    { role: 'user', content: 'Why does the date test fail?' },
    {
      role: 'assistant',
      content: [
        {
          type: 'thinking',
          thinking: 'The test file will show what is expected.',
          signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxT',
        },
        { type: 'tool_use', id: 'toolu_01A', name: 'read_file', input: { path: 'test/date.test.js' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01A',
          content:
            "import { formatDate } from '../src/date.js';\ntest('formats in UTC', () => {\n  expect(formatDate(new Date(0))).toBe('1970-01-01');\n});",
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'thinking',
          thinking: 'Now the implementation.',
          signature: 'EqQBCgIYAhIMp3kLr9XwZ2a1b4cHGgxU',
        },
        { type: 'tool_use', id: 'toolu_01B', name: 'read_file', input: { path: 'src/date.js' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01B',
          content: "export function formatDate(date) {\n  return date.toLocaleDateString('en-CA');\n}",
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'text',
          text: 'formatDate uses the local time zone, so it prints 1969-12-31 west of UTC. Use date.toISOString().slice(0, 10).',
        },
      ],
    },
    { role: 'user', content: 'Fix it.' },
  ],
};

/** An OpenAI Chat Completions request with a developer message, a function tool and parallel tool calls. */
export const openAIChatRequest = {
  model: 'gpt-4.1',
  tools: [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather in a city',
        parameters: weatherParameters,
      },
    },
    {
      type: 'function',
      function: {
        name: 'search_hotels',
        description: 'Hotels with rooms free tonight',
        parameters: weatherParameters,
      },
    },
  ],
  messages: [
    { role: 'developer', content: 'You are a travel assistant.' },
    { role: 'user', content: 'Is it warm in Lisbon and in Oslo?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } },
        { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '{"temperature":24,"sky":"clear"}' },
    { role: 'tool', tool_call_id: 'call_2', content: '{"temperature":6,"sky":"rain"}' },
    { role: 'assistant', content: 'Lisbon is warm (24 °C, clear); Oslo is cold (6 °C, rain).' },
    { role: 'user', content: 'Then book me a hotel in Lisbon.' },
  ],
};

/** An OpenAI Responses request with instructions, a function tool, a reasoning item and a function call. */
export const openAIResponsesRequest = {
  model: 'gpt-5',
  instructions: 'You are a travel assistant.',
  tools: [
    {
      type: 'function',
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: weatherParameters,
      strict: true,
    },
  ],
  input: [
    { role: 'user', content: 'Is it warm in Lisbon?' },
    { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAABo1' },
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Lisbon"}' },
    { type: 'function_call_output', call_id: 'call_1', output: '{"temperature":24,"sky":"clear"}' },
    {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Yes: 24 °C and clear.', annotations: [] }],
    },
    { role: 'user', content: 'Then book me a hotel there.' },
  ],
};

/** A bare list of core messages with a tool call and its result. */
export const coreMessages = [
  { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.' }] },
  { role: 'user', content: [{ type: 'text', text: 'List the test files.' }] },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'list_files', input: { folder: 'test' } }],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_1',
        toolName: 'list_files',
        output: 'test/date.test.js\ntest/money.test.js\ntest/text.test.js',
      },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'There are three: date, money and text.' }] },
  { role: 'user', content: [{ type: 'text', text: 'Run the date test.' }] },
];

/** The next step of the Chat conversation, as an agent appends it to a session: the model's tool call... */
export const openAIChatToolCall = [
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_3', type: 'function', function: { name: 'search_hotels', arguments: '{"city":"Lisbon"}' } },
    ],
  },
];

/** ...then, once the tool ran, its result. */
export const openAIChatToolResult = [
  {
    role: 'tool',
    tool_call_id: 'call_3',
    content: '[{"name":"Casa do Rio","price":120},{"name":"Alfama Rooms","price":95}]',
  },
];
