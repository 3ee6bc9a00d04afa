import { type AssistantMessage, type Message, type ToolMessage, textOf } from '@compaction/core';
import type { PlanItem } from './plan-probe.js';

/** How many items the scripted plan has, and so how many times it is written. */
export const planPhases = 5;

/** Characters of an item's text taken from the agent's own words. */
export const planItemCharacters = 80;

/** What Claude Code answers a `TodoWrite` call with. */
export const todoWriteResult =
  'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. ' +
  'Please proceed with the current tasks if applicable';

/** A transcript with plan calls inserted, and the call times moved with its messages. */
export interface PlannedTranscript {
  messages: Message[];
  callTimes?: (number | undefined)[];
}

/**
 * The shared transcripts hold no plan/todo tool call, so the working-state evaluation writes one in by script:
 * the assistant turns are cut into {@link planPhases} equal phases, item N is `Phase N of 5: ` and the first
 * {@link planItemCharacters} characters of the agent's first words in phase N, and at the start of each phase a
 * Claude Code `TodoWrite` call (and its result) is inserted before the agent's turn, the earlier items
 * `completed`, this one `in_progress`, the later ones `pending`. Nothing else changes; the input is not mutated.
 */
export function withPlanCalls(
  messages: readonly Message[],
  callTimes?: readonly (number | undefined)[],
): PlannedTranscript {
  const turns = messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : []));
  // The first turn answers the task directly: phases start from the second so each plan follows a result.
  const starts = Array.from(
    { length: planPhases },
    (_, phase) => turns[1 + Math.floor((phase * (turns.length - 1)) / planPhases)],
  ).filter((index): index is number => index !== undefined);
  const texts = starts.map(
    (index, phase) => `Phase ${phase + 1} of ${planPhases}: ${firstWords(messages[index]!)}`,
  );
  const planned: Message[] = [];
  const times: (number | undefined)[] = [];
  for (const [index, message] of messages.entries()) {
    const phase = starts.indexOf(index);
    if (phase !== -1) {
      const items = texts.map((text, item): PlanItem => ({ text, status: statusAt(item, phase) }));
      planned.push(...planTurn(`scripted-plan-${phase + 1}`, items));
      times.push(callTimes?.[index], undefined);
    }
    planned.push(message);
    times.push(callTimes?.[index]);
  }
  return { messages: planned, ...(callTimes === undefined ? {} : { callTimes: times }) };
}

function statusAt(item: number, phase: number): string {
  return item < phase ? 'completed' : item === phase ? 'in_progress' : 'pending';
}

/** A `TodoWrite` call with the plan's items and Claude Code's answer to it. */
export function planTurn(id: string, items: readonly PlanItem[]): [AssistantMessage, ToolMessage] {
  // Claude Code's `activeForm` is the item in the present continuous; it must not repeat the item's text.
  const todos = items.map((item, index) => ({
    content: item.text,
    status: item.status,
    activeForm: `Working on item ${index + 1}`,
  }));
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 'TodoWrite', input: { todos } }],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: id, toolName: 'TodoWrite', output: todoWriteResult }],
    },
  ];
}

/** The first line of the message's text with letters in it, shortened, without Markdown or a `THOUGHT:` label. */
function firstWords(message: Message): string {
  const line =
    textOf(message)
      .split('\n')
      .map((candidate) => candidate.replace(/^[#*\s]*(THOUGHT:)?\s*/i, '').trim())
      .find((candidate) => /[A-Za-z]{3}/.test(candidate)) ?? 'continue the task';
  return line.length <= planItemCharacters ? line : line.slice(0, planItemCharacters).trim();
}
