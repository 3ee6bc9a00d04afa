/** The opening of a coding agent's Chat Completions conversation: a system prompt and the task. */
export const openingMessages = (): unknown[] => [
  { role: 'system', content: 'You are a careful coding agent working in a JavaScript repository.' },
  { role: 'user', content: 'Make the failing tests pass.' },
];

/**
 * One tool round of a coding agent, about `bytes` long as JSON: a call to run the tests, and its result, a long
 * test log. `round` makes each round's text its own.
 */
export function toolRound(round: number, bytes = 14_000): unknown[] {
  const lines = Math.max(1, Math.round(bytes / 70));
  const output = Array.from(
    { length: lines },
    (_, line) => ` ✓ test/unit/module-${line}.test.js > case ${line} of run ${round} passes`,
  ).join('\n');
  const id = `call_${round}`;
  const call = {
    id,
    type: 'function',
    function: { name: 'bash', arguments: JSON.stringify({ command: `npm test -- --run ${round}` }) },
  };
  return [
    { role: 'assistant', content: null, tool_calls: [call] },
    { role: 'tool', tool_call_id: id, content: output },
  ];
}

/**
 * A Chat Completions request of a coding agent of about `bytes` bytes: a system prompt and the task, then tool
 * rounds whose results are long test logs, and a new user request.
 */
export function largeChatRequest(bytes: number): { model: string; messages: unknown[] } {
  const messages = openingMessages();
  let size = 0;
  for (let round = 0; size < bytes; round++) {
    const added = toolRound(round);
    messages.push(...added);
    size += JSON.stringify(added).length;
  }
  messages.push({ role: 'user', content: 'Now sum up what you changed.' });
  return { model: 'gpt-4o', messages };
}

/** The body of a `POST /v1/compact` of about `bytes` bytes (see {@link largeChatRequest}). */
export function largeCompactBody(bytes: number): string {
  return JSON.stringify({ conversation: largeChatRequest(bytes) });
}
