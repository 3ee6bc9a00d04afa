/**
 * A Chat Completions request of a coding agent at least `bytes` long as JSON: a system prompt, the task, then
 * tool rounds whose results are test logs of `linesPerResult` lines, ending with a new user request. Fewer
 * lines per result make more rounds of the same size: more messages for a strategy to go through, for as much
 * text to count.
 */
export function largeAgentRequest(
  bytes: number,
  linesPerResult = 200,
): { model: string; messages: unknown[] } {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a careful coding agent working in a JavaScript repository.' },
    { role: 'user', content: 'Make the failing tests pass.' },
  ];
  let size = 0;
  for (let round = 0; size < bytes; round++) {
    const output = Array.from(
      { length: linesPerResult },
      (_, line) => ` ✓ test/unit/module-${line}.test.js > case ${line} of run ${round} passes`,
    ).join('\n');
    const call = { id: `call_${round}`, type: 'function', function: { name: 'bash', arguments: '{}' } };
    call.function.arguments = JSON.stringify({ command: `npm test -- --run ${round}` });
    messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    messages.push({ role: 'tool', tool_call_id: call.id, content: output });
    size += output.length + 200;
  }
  messages.push({ role: 'user', content: 'Now sum up what you changed.' });
  return { model: 'gpt-4o', messages };
}
