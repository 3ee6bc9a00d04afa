import type OpenAI from 'openai';

/** Forty lines of a shell command's output at `step`, long enough that twelve steps pass an 8k trigger. */
const shellOutput = (step: number) =>
  Array.from(
    { length: 40 },
    (_, line) => `step ${step} line ${line}: value = compute(${step}, ${line})`,
  ).join('\n');

/** Responses input items of a coding session: a task, twelve shell calls with long outputs, a new request. */
export function responsesShellSession(): OpenAI.Responses.ResponseInputItem[] {
  const items: OpenAI.Responses.ResponseInputItem[] = [
    { role: 'user', content: 'Fix the failing test in src/app.ts' },
  ];
  for (let step = 0; step < 12; step++) {
    const callId = `call_${step}`;
    items.push(
      {
        type: 'function_call',
        call_id: callId,
        name: 'bash',
        arguments: JSON.stringify({ command: `cat f${step}` }),
      },
      { type: 'function_call_output', call_id: callId, output: shellOutput(step) },
    );
  }
  items.push({ role: 'user', content: 'Now run the tests.' });
  return items;
}
