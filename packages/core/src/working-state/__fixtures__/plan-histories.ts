import fc from 'fast-check';
import { withCompactionMetadata } from '../../messages/compaction-metadata.js';
import type { AssistantMessage, Message, ToolMessage, ToolResultPart } from '../../messages/message.js';

/** A plan tool call's assistant message, such as Claude Code's `TodoWrite`, with the whole list as input. */
export function planCall(id: string, todos: string[], toolName = 'TodoWrite'): AssistantMessage {
  const input = { todos: todos.map((content) => ({ content, status: 'pending' })) };
  return { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName, input }] };
}

/** The tool message answering `ids`, each result named after its call. */
export function answers(...calls: Array<{ id: string; toolName?: string }>): ToolMessage {
  const content = calls.map(
    ({ id, toolName = 'bash' }): ToolResultPart => ({
      type: 'tool-result',
      toolCallId: id,
      toolName,
      output: `output of ${id}`,
    }),
  );
  return { role: 'tool', content };
}

const toolNames = ['bash', 'read', 'TodoWrite', 'update_plan', 'todowrite', 'todoWrite'] as const;

/** One step of a generated history: a user turn, a reply, or a tool turn whose results may be split up. */
const stepArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), pinned: fc.boolean() }),
  fc.record({ kind: fc.constant('reply' as const), pinned: fc.boolean() }),
  fc.record({
    kind: fc.constant('tools' as const),
    names: fc.array(fc.constantFrom(...toolNames), { minLength: 1, maxLength: 3 }),
    split: fc.boolean(),
    answered: fc.boolean(),
    pinned: fc.boolean(),
  }),
);

/**
 * Valid histories (calls answered in the tool messages right after them, but for the last turn's, which may
 * wait) of user turns, replies and tool turns that call plan tools among others, some pinned by the user.
 */
export const planHistoryArbitrary: fc.Arbitrary<Message[]> = fc
  .array(stepArbitrary, { maxLength: 14 })
  .map((steps) => {
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Fix the build.' }] }];
    const pin = (message: Message, pinned: boolean) =>
      pinned ? withCompactionMetadata(message, { pinned: true }) : message;
    steps.forEach((step, stepIndex) => {
      if (step.kind !== 'tools') {
        const role = step.kind === 'user' ? 'user' : 'assistant';
        const text = `${role} text ${stepIndex}`;
        messages.push(pin({ role, content: [{ type: 'text', text }] } as Message, step.pinned));
        return;
      }
      const calls = step.names.map((toolName, position) => ({
        id: `call_${stepIndex}_${position}`,
        toolName,
      }));
      const content = calls.map(({ id, toolName }) => ({
        type: 'tool-call' as const,
        toolCallId: id,
        toolName,
        input: { step: stepIndex, todos: [`task ${stepIndex}`] },
      }));
      messages.push(pin({ role: 'assistant', content }, step.pinned));
      // Only the last turn may still wait for its results.
      if (!step.answered && stepIndex === steps.length - 1) return;
      if (step.split) for (const call of calls) messages.push(answers(call));
      else messages.push(answers(...calls));
    });
    return messages;
  });
