import { deepEqual, type JSONValue, type Message, toolCallsOf } from '@compaction/core';
import { defaultPlanTools, findPlanState } from '@compaction/core/working-state';
import fc from 'fast-check';
import { type ConversationArbitrarySettings, conversationArbitrary } from './conversation-arbitrary.js';

/** What each agent's plan tool takes, in its own shape, and what it answers. */
const planShapes: Record<string, { input: (steps: string[]) => JSONValue; output: string }> = {
  TodoWrite: {
    input: (steps) => ({
      todos: steps.map((step, index) => ({
        content: step,
        status: index === 0 ? 'in_progress' : 'pending',
        activeForm: `Working on: ${step}`,
      })),
    }),
    output:
      'Todos have been modified successfully. Ensure that you continue to use the todo list to track your ' +
      'progress. Please proceed with the current tasks if applicable',
  },
  update_plan: {
    input: (steps) => ({
      plan: steps.map((step, index) => ({ step, status: index === 0 ? 'in_progress' : 'pending' })),
    }),
    output: 'Plan updated',
  },
  todowrite: {
    input: (steps) => ({
      todos: steps.map((step, index) => ({
        id: String(index + 1),
        content: step,
        status: index === 0 ? 'in_progress' : 'pending',
        priority: 'high',
      })),
    }),
    output: '[]',
  },
};

/** The plan input and result of an agent's plan tool (Claude Code's shape for a tool it does not know). */
export function planCallShape(toolName: string, steps: string[]): { input: JSONValue; output: string } {
  const shape = planShapes[toolName] ?? planShapes.TodoWrite!;
  return { input: shape.input(steps), output: shape.output };
}

/**
 * `messages` with the calls at `picks` (taken modulo the number of calls, in reading order) turned into calls
 * of the plan tool `toolName`, each with a longer plan than the one before, and their results into the
 * tool's answers. Pairing is unchanged: only names, inputs and outputs are.
 */
export function withPlanCalls(
  messages: readonly Message[],
  picks: readonly number[],
  toolName: string,
): Message[] {
  const ids = messages.flatMap((message) => toolCallsOf(message).map((call) => call.toolCallId));
  if (ids.length === 0) return [...messages];
  const chosen = new Set(picks.map((pick) => ids[pick % ids.length]!));
  let plans = 0;
  const shapes = new Map<string, { input: JSONValue; output: string }>();
  for (const id of ids) {
    if (!chosen.has(id)) continue;
    plans++;
    shapes.set(
      id,
      planCallShape(
        toolName,
        Array.from({ length: plans }, (_, step) => `step ${step + 1}`),
      ),
    );
  }
  return messages.map((message): Message => {
    if (
      message.role === 'assistant' &&
      message.content.some((part) => part.type === 'tool-call' && shapes.has(part.toolCallId))
    ) {
      const content = message.content.map((part) => {
        const shape = part.type === 'tool-call' ? shapes.get(part.toolCallId) : undefined;
        return shape === undefined || part.type !== 'tool-call'
          ? part
          : { ...part, toolName, input: shape.input };
      });
      return { ...message, content };
    }
    if (message.role === 'tool' && message.content.some((part) => shapes.has(part.toolCallId))) {
      const content = message.content.map((part) => {
        const shape = shapes.get(part.toolCallId);
        return shape === undefined ? part : { ...part, toolName, output: shape.output, isError: false };
      });
      return { ...message, content };
    }
    return message;
  });
}

/**
 * Generated conversations ({@link conversationArbitrary}) in which one to three tool calls are calls of one
 * agent's plan tool (`TodoWrite`, `update_plan`, `todowrite`...): the latest plan anywhere, often far back.
 */
export function planConversationArbitrary(
  settings: ConversationArbitrarySettings = {},
): fc.Arbitrary<Message[]> {
  return fc
    .record({
      messages: conversationArbitrary({ minSteps: 2, ...settings }),
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
      toolName: fc.constantFrom(...defaultPlanTools),
    })
    .map(({ messages, picks, toolName }) => withPlanCalls(messages, picks, toolName));
}

/**
 * Why `after` does not hold the latest plan state of `before` verbatim (the messages {@link findPlanState}
 * finds: the latest plan call's assistant message and its result), or undefined when it does. A message
 * counts as kept when one of the same role with deep-equal content is in `after`.
 */
export function latestPlanProblem(before: readonly Message[], after: readonly Message[]): string | undefined {
  const [callIndex, ...resultIndexes] = findPlanState(before);
  if (callIndex === undefined) return undefined;
  const call = toolCallsOf(before[callIndex]!).findLast((part) => defaultPlanTools.includes(part.toolName));
  for (const index of [callIndex, ...resultIndexes]) {
    const message = before[index]!;
    const kept = after.some(
      (candidate) =>
        candidate === message ||
        (candidate.role === message.role && deepEqual(candidate.content, message.content)),
    );
    if (kept) continue;
    const what = index === callIndex ? 'call' : 'result';
    const named = `${call?.toolName} call "${call?.toolCallId}"`;
    return `dropped or changed the latest plan ${what} (message ${index}, ${named})`;
  }
  return undefined;
}
