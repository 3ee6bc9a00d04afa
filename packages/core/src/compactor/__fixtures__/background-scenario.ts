import { collapseMiddle } from '../../__fixtures__/collapse-middle.js';
import { calls, conversation, user } from '../../__fixtures__/messages.js';
import type { Message, ToolMessage } from '../../messages/message.js';
import type { CompactionInput, CompactionStrategy } from '../../specs/compaction-strategy-v1.js';
import { createFastEstimator } from '../../tokens/fast-estimator.js';
import { createTokenCounter } from '../../tokens/token-counter.js';
import type { CompactorEvents } from '../compaction-event.js';
import type { Compactor } from '../compactor.js';

// Counted by the fitted features, whose counts the scenario's sizes below are set on: which estimator counts does
// not matter to the scheduling these tests hold, only that the sizes sit where the comments say (the first test
// checks it).
export const counter = createTokenCounter(createFastEstimator({ vocabulary: false }));

/** `count` tool turns (a call and its long result) labelled `label`, then a user message. */
export function turns(count: number, label: string): Message[] {
  const messages: Message[] = [];
  for (let index = 0; index < count; index++) {
    const id = `${label}_${index}`;
    const result: ToolMessage = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: id, toolName: 'bash', output: 'y'.repeat(400) }],
    };
    messages.push(calls(id), result);
  }
  messages.push(user(`Go on after ${label}.`));
  return messages;
}

/** The history the background job compacts: between `prepareAt` and the trigger of {@link budget}. */
export const base = conversation(12, 400);
/** The same history four turns later: over the trigger, under the limit. */
export const later = [...base, ...turns(4, 'later')];
/** Six turns later: over the limit, though those six turns alone are under the target. */
export const beyond = [...base, ...turns(6, 'beyond')];
const limit = Math.ceil(counter.estimate(later) / 0.9);
export const budget = {
  contextWindow: limit,
  reservedOutputTokens: 0,
  safetyMargin: 0,
  trigger: 0.85,
  target: 0.45,
};
export const background = { prepareAt: 0.6 };

/** A strategy that collapses the middle, counts its calls, and can be held until released, or fail. */
export function controlledStrategy() {
  const inner = collapseMiddle();
  const state = {
    calls: 0,
    inputs: [] as CompactionInput[],
    failNext: 0,
    gate: undefined as Promise<void> | undefined,
    release: () => {},
  };
  const hold = () => {
    state.gate = new Promise<void>((resolve) => {
      state.release = resolve;
    });
  };
  const strategy: CompactionStrategy = {
    ...inner,
    compact: async (input) => {
      state.calls++;
      state.inputs.push(input);
      await state.gate;
      if (state.failNext > 0) {
        state.failNext--;
        throw new Error('the summarizer is down');
      }
      return inner.compact(input);
    },
  };
  return { strategy, state, hold };
}

/** Every event the Compactor emits, by name, in order. */
export function recordEvents(compactor: Compactor) {
  const events: { [Name in keyof CompactorEvents]: CompactorEvents[Name][] } = {
    start: [],
    end: [],
    skipped: [],
    error: [],
    background: [],
  };
  for (const name of Object.keys(events) as (keyof CompactorEvents)[]) {
    compactor.on(name, (payload) => (events[name] as unknown[]).push(payload));
  }
  return events;
}

/** Lets every pending promise chain run (the background job's steps after its strategy resolved). */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
