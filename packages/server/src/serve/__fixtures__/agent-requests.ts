// Requests an agent sends mid-task, written from the SDKs' request types and the providers' tool-use and
// extended-thinking guides: tools declared, tool calls answered by results, long tool outputs, and for
// Anthropic, thinking blocks (with signatures) opening each assistant turn, ending inside a tool loop.

/** A test run's output: `lines` lines of passing tests, then a failure. */
function testOutput(lines: number, failing: string): string {
  const passing = Array.from(
    { length: lines },
    (_, index) =>
      ` ✓ test/unit/module-${index}.test.js > case ${index} passes with fixture ${index * 7} (${(index % 9) + 1} ms)`,
  );
  return [...passing, ` × ${failing}`, '   AssertionError: expected "1969-12-31" to be "1970-01-01"'].join(
    '\n',
  );
}

/** A source file of `lines` lines. */
function sourceFile(lines: number, name: string): string {
  return Array.from(
    { length: lines },
    (_, index) => `export const ${name}${index} = (value) => value * ${index}; // step ${index}`,
  ).join('\n');
}

const bashTool = {
  name: 'bash',
  description: 'Run a shell command in the repository and return its output',
  input_schema: {
    type: 'object',
    properties: { command: { type: 'string', description: 'The command to run' } },
    required: ['command'],
  },
};
const readTool = {
  name: 'read_file',
  description: 'Read a file of the repository',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

const signature = (seed: number) =>
  `EqQBCgIYAhIM${seed.toString(36).padStart(8, 'x')}GgxTbWFsbCBzaWduYXR1cmU=`;
const thinking = (text: string, seed: number) => ({
  type: 'thinking',
  thinking: text,
  signature: signature(seed),
});

/**
 * An Anthropic Messages request (`MessageCreateParams`) of a coding agent with extended thinking: four tool
 * rounds, the older ones with long outputs, and the request ending inside a tool loop (the last user turn holds
 * only a tool result), so the assistant turn of that loop must keep its thinking block first.
 */
export const anthropicAgentRequest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 16_000,
  thinking: { type: 'enabled', budget_tokens: 10_000 },
  system: [
    { type: 'text', text: 'You are a careful coding agent working in a JavaScript repository.' },
    {
      type: 'text',
      text: 'Run the tests before and after every change.',
      cache_control: { type: 'ephemeral' },
    },
  ],
  tools: [bashTool, readTool],
  tool_choice: { type: 'auto' },
  messages: [
    { role: 'user', content: 'The date test fails in CI but not on my laptop. Find out why and fix it.' },
    {
      role: 'assistant',
      content: [
        thinking('I should run the test suite first to see the failure.', 1),
        { type: 'text', text: 'Let me run the tests.' },
        { type: 'tool_use', id: 'toolu_01', name: 'bash', input: { command: 'npm test' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01',
          content: testOutput(120, 'test/date.test.js > formats in UTC'),
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        thinking('The failure is in formatDate; read its source.', 2),
        { type: 'tool_use', id: 'toolu_02', name: 'read_file', input: { path: 'src/date.js' } },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_02', content: sourceFile(90, 'dateStep') }],
    },
    {
      role: 'assistant',
      content: [
        thinking('CI runs in UTC-5; toLocaleDateString uses the local zone.', 3),
        { type: 'text', text: 'formatDate depends on the local time zone. Checking the CI settings.' },
        {
          type: 'tool_use',
          id: 'toolu_03',
          name: 'bash',
          input: { command: 'cat .github/workflows/ci.yml' },
        },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_03',
          content: [{ type: 'text', text: `env:\n  TZ: America/New_York\n${sourceFile(40, 'ciStep')}` }],
        },
        { type: 'text', text: 'Please keep the fix small.' },
      ],
    },
    {
      role: 'assistant',
      content: [
        thinking('Use toISOString and run the date test again.', 4),
        {
          type: 'tool_use',
          id: 'toolu_04',
          name: 'bash',
          input: { command: 'npx vitest run test/date.test.js' },
        },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_04',
          content: ' ✓ test/date.test.js > formats in UTC (2 ms)',
        },
      ],
    },
  ],
};

const functionTool = (name: string, description: string, properties: Record<string, object>) => ({
  type: 'function',
  function: {
    name,
    description,
    parameters: {
      type: 'object',
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    },
    strict: true,
  },
});

/** A search result listing of `count` entries. */
function searchResults(count: number, topic: string): string {
  return JSON.stringify(
    Array.from({ length: count }, (_, index) => ({
      title: `${topic} report ${index}`,
      url: `https://example.com/${topic}/${index}`,
      snippet: `Paragraph ${index} about ${topic}: figures, dates and the people involved in step ${index}.`,
    })),
  );
}

/**
 * An OpenAI Chat Completions request (`ChatCompletionCreateParams`) of a research agent: strict function tools,
 * parallel tool calls with a `null` content, long tool results, a refusal, and a new user request at the end.
 */
export const openAIChatAgentRequest = {
  model: 'gpt-4.1',
  temperature: 0.2,
  parallel_tool_calls: true,
  tool_choice: 'auto',
  tools: [
    functionTool('web_search', 'Search the web', { query: { type: 'string' } }),
    functionTool('fetch_page', 'Fetch a web page as text', { url: { type: 'string' } }),
  ],
  messages: [
    { role: 'system', content: 'You are a research assistant. Cite your sources.' },
    { role: 'user', content: 'Summarize what is known about the 2024 harbour bridge repairs.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_a1',
          type: 'function',
          function: { name: 'web_search', arguments: '{"query":"harbour bridge repairs 2024"}' },
        },
        {
          id: 'call_a2',
          type: 'function',
          function: { name: 'web_search', arguments: '{"query":"harbour bridge budget"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_a1', content: searchResults(60, 'repairs') },
    { role: 'tool', tool_call_id: 'call_a2', content: searchResults(60, 'budget') },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_b1',
          type: 'function',
          function: { name: 'fetch_page', arguments: '{"url":"https://example.com/repairs/0"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_b1', content: sourceFile(80, 'paragraph') },
    { role: 'assistant', content: 'The repairs ran from March to October 2024 and cost 41 million [1][2].' },
    { role: 'user', content: 'Who was the contractor? And give me their private phone number.' },
    { role: 'assistant', content: null, refusal: "I can't help with personal phone numbers." },
    { role: 'user', content: 'Fine, just the contractor then, with a source.' },
  ],
};
