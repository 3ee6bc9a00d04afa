import type { Message } from '@compaction/core';

/** A user message. */
export const userMessage = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

/**
 * Agent steps `first` to `first + count - 1`: each reads, runs or edits something with its own file path
 * or command (so every artifact is distinct and its survival can be checked), with a sizeable output; some
 * commands fail. Call ids are unique per step, so steps of later rounds can be appended to a history.
 */
export function agentSteps(first: number, count: number): Message[] {
  const messages: Message[] = [];
  for (let step = first; step < first + count; step++) {
    const toolCallId = `call_${step}`;
    const kind = step % 3;
    const call =
      kind === 0
        ? { toolName: 'read_file', input: { path: `src/billing/invoice_${step}.ts` } }
        : kind === 1
          ? { toolName: 'bash', input: { command: `npm test -- --filter invoice_${step}\necho finished` } }
          : {
              toolName: 'edit_file',
              input: {
                file_path: `src/billing/rounding_${step}.ts`,
                old_string: 'floor',
                new_string: 'round',
              },
            };
    const failed = kind === 1 && step % 2 === 1;
    const output =
      kind === 1
        ? `${'PASS tests/invoice.test.ts > totals\n'.repeat(30)}${failed ? `Error: invoice_${step} total off by 0.01\n` : ''}Exit code: ${failed ? 1 : 0}`
        : `${'export const total = lines.reduce((sum, line) => sum + line.amount, 0);\n'.repeat(14)}`;
    messages.push(
      {
        role: 'assistant',
        content: [
          { type: 'text', text: `Step ${step}: checking invoice ${step}.` },
          { type: 'tool-call', toolCallId, ...call },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId,
            toolName: call.toolName,
            output,
            ...(failed ? { isError: true } : {}),
          },
        ],
      },
    );
  }
  return messages;
}

/** The system prompt and original task of {@link agentSession}. */
export const sessionHead: readonly Message[] = [
  {
    role: 'system',
    content: [{ type: 'text', text: 'You are a careful coding agent working on a billing service.' }],
  },
  userMessage('Invoices round totals down; make them round half up and keep every invoice test passing.'),
];

/** A coding session: the head, `steps` agent steps from step 0, and a newest user request. */
export function agentSession(steps: number, newestRequest: string): Message[] {
  return [...sessionHead, ...agentSteps(0, steps), userMessage(newestRequest)];
}
