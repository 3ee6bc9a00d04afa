import { type Message, withCompactionMetadata } from '@compaction/core';
import fc from 'fast-check';
import { assistant, system, user } from './messages.js';

interface TextStep {
  kind: 'user' | 'assistant' | 'reasoning';
  text: string;
  pinned: boolean;
}
interface ToolStep {
  kind: 'tools';
  outputs: string[];
  pinned: boolean;
}
type Step = TextStep | ToolStep;

const text = fc.string({ minLength: 1, maxLength: 40 });
const output = fc.array(fc.string({ maxLength: 60 }), { maxLength: 30 }).map((lines) => lines.join('\n'));

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom('user', 'assistant', 'reasoning'), text, pinned: fc.boolean() }),
  fc.record({
    kind: fc.constant('tools'),
    outputs: fc.array(output, { minLength: 1, maxLength: 3 }),
    pinned: fc.boolean(),
  }),
);

/** Valid histories of every shape a strategy meets: with or without a system prompt, pinned messages, tool turns. */
export const historyArbitrary: fc.Arbitrary<Message[]> = fc
  .record({ withSystem: fc.boolean(), steps: fc.array(step, { maxLength: 14 }) })
  .map(({ withSystem, steps }) => [
    ...(withSystem ? [system('You are a coding agent.')] : []),
    ...steps.flatMap((item, stepIndex) =>
      stepMessages(item, stepIndex).map((message, index, all) =>
        item.pinned && index === all.length - 1 ? withCompactionMetadata(message, { pinned: true }) : message,
      ),
    ),
  ]);

function stepMessages(item: Step, stepIndex: number): Message[] {
  if (item.kind === 'tools') return toolExchange(item, stepIndex);
  if (item.kind === 'user') return [user(item.text)];
  if (item.kind === 'assistant') return [assistant(item.text)];
  const reasoning = { type: 'reasoning', text: 'thinking', signature: 'signature' } as const;
  return [{ role: 'assistant', content: [reasoning, { type: 'text', text: item.text }] }];
}

function toolExchange(item: ToolStep, stepIndex: number): Message[] {
  const ids = item.outputs.map((_, index) => `call_${stepIndex}_${index}`);
  return [
    {
      role: 'assistant',
      content: ids.map((toolCallId) => ({ type: 'tool-call', toolCallId, toolName: 'bash', input: {} })),
    },
    {
      role: 'tool',
      content: ids.map((toolCallId, index) => ({
        type: 'tool-result',
        toolCallId,
        toolName: 'bash',
        output: item.outputs[index]!,
      })),
    },
  ];
}

/** Freezes a value and everything in it, so that any write to it throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
