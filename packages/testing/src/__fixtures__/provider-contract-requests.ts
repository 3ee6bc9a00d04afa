// Small valid requests per provider format; tests break one rule at a time on fresh copies.

type JSON = Record<string, unknown>;

/** A Messages request: a task, one tool round, an answer and a newest request. */
export function anthropicRequest(): JSON {
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    system: 'You are a coding agent.',
    tools: [{ name: 'bash', input_schema: { type: 'object', properties: {} } }],
    messages: [
      { role: 'user', content: 'Fix the failing test.' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Running the tests.' },
          { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm test' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1 failing' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'One test fails; fixing it.' }] },
      { role: 'user', content: 'Also update the changelog.' },
    ],
  };
}

/** A Messages request with thinking on that ends inside a tool loop. */
export function anthropicToolLoopRequest(): JSON {
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 8192,
    thinking: { type: 'enabled', budget_tokens: 4096 },
    tools: [{ name: 'bash', input_schema: { type: 'object', properties: {} } }],
    messages: [
      { role: 'user', content: 'Fix the failing test.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Look at the code first.', signature: 'sig-earlier' },
          { type: 'text', text: 'I will look.' },
        ],
      },
      { role: 'user', content: 'Go ahead.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Run the tests.', signature: 'sig-loop' },
          { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm test' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1 failing' }] },
    ],
  };
}

/** A Chat Completions request: instructions, a tool round, a legacy function call, an answer, a request. */
export function openAIChatRequest(): JSON {
  return {
    model: 'gpt-5',
    tools: [{ type: 'function', function: { name: 'bash', parameters: { type: 'object', properties: {} } } }],
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Fix the failing test.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"npm test"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '1 failing' },
      {
        role: 'assistant',
        content: null,
        function_call: { name: 'bash', arguments: '{"command":"git diff"}' },
      },
      { role: 'function', name: 'bash', content: 'diff --git a/x b/x' },
      { role: 'assistant', content: 'One test fails; fixing it.' },
      { role: 'user', content: 'Also update the changelog.' },
    ],
  };
}

/** A Responses request: developer message, task, reasoning with a call and its output, answer, request. */
export function openAIResponsesRequest(): JSON {
  return {
    model: 'gpt-5',
    instructions: 'You are a coding agent.',
    input: [
      { role: 'developer', content: 'Prefer small changes.' },
      { role: 'user', content: 'Fix the failing test.' },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc-1' },
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'bash',
        arguments: '{"command":"npm test"}',
      },
      { type: 'function_call_output', call_id: 'call_1', output: '1 failing' },
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'enc-2' },
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'One test fails.', annotations: [] }],
      },
      { role: 'user', content: 'Also update the changelog.' },
    ],
  };
}

/** A deep copy to break. */
export function copy<Value>(value: Value): Value {
  return structuredClone(value);
}
