import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistant, calls, results, system, user } from '../__fixtures__/messages.js';
import type { Message } from '../messages/message.js';
import { answers, planCall, planHistoryArbitrary } from './__fixtures__/plan-histories.js';
import { findPlanState } from './find-plan-state.js';
import { defaultPlanTools } from './plan-tools.js';

/** The oracle: the messages that hold the last plan call in reading order, or its result. */
function expectedPlanState(messages: readonly Message[], tools: readonly string[]): number[] {
  const callIds = messages.flatMap((message) =>
    message.content.flatMap((part) =>
      part.type === 'tool-call' && tools.includes(part.toolName) ? [part.toolCallId] : [],
    ),
  );
  const latest = callIds.at(-1);
  if (latest === undefined) return [];
  return messages.flatMap((message, index) =>
    message.content.some(
      (part) => (part.type === 'tool-call' || part.type === 'tool-result') && part.toolCallId === latest,
    )
      ? [index]
      : [],
  );
}

describe('findPlanState', () => {
  it('finds the latest plan call and the results answering it', () => {
    const messages: Message[] = [
      system('You are a coding agent.'),
      user('Fix the build.'),
      planCall('plan_1', ['read the log']),
      answers({ id: 'plan_1', toolName: 'TodoWrite' }),
      calls('read_1'),
      results('read_1'),
      planCall('plan_2', ['read the log', 'fix the import']),
      answers({ id: 'plan_2', toolName: 'TodoWrite' }),
      assistant('Fixing the import now.'),
    ];
    expect(findPlanState(messages)).toEqual([6, 7]);
  });

  it('recognises each agent by the name it sends, exactly', () => {
    for (const toolName of ['TodoWrite', 'update_plan', 'todowrite', 'write_todos']) {
      expect(defaultPlanTools).toContain(toolName);
      expect(findPlanState([user('Go.'), planCall('plan', ['a'], toolName)])).toEqual([1]);
    }
    expect(findPlanState([user('Go.'), planCall('plan', ['a'], 'todoWrite')])).toEqual([]);
  });

  it('finds the result among the split tool messages of a turn with several calls', () => {
    const turn: Message = {
      role: 'assistant',
      content: [...calls('read_1').content, ...planCall('plan', ['a']).content],
    };
    const messages = [
      user('Go.'),
      turn,
      answers({ id: 'read_1' }),
      answers({ id: 'plan', toolName: 'TodoWrite' }),
    ];
    expect(findPlanState(messages)).toEqual([1, 3]);
  });

  it('takes the tools it is given instead of the default ones', () => {
    const messages = [user('Go.'), planCall('plan', ['a'], 'set_goals'), answers({ id: 'plan' })];
    expect(findPlanState(messages)).toEqual([]);
    expect(findPlanState(messages, { tools: ['set_goals'] })).toEqual([1, 2]);
    expect(findPlanState(messages, { tools: [] })).toEqual([]);
  });

  it('finds what holds the last plan call in reading order, and nothing else', () => {
    fc.assert(
      fc.property(planHistoryArbitrary, (messages) => {
        expect(findPlanState(messages)).toEqual(expectedPlanState(messages, defaultPlanTools));
      }),
    );
  });
});
