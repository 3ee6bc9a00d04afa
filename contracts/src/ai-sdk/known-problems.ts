import type { ContractViolation } from '@compaction/testing';
import type { AiSdkTarget } from './ai-sdk-target.js';

/** The requests a violation was found between: the uncompacted one and the compacted one, same step. */
export interface ViolationContext {
  target: AiSdkTarget;
  original: unknown;
  compacted: unknown;
}

/**
 * A violation the check knows the cause of. `bug` problems are open bugs of the AI SDK path, each reproduced
 * by an `it.fails` test in `known-problems.test.ts` (remove the entry when that test flips); `reading`
 * problems are violations of how the kit reads a request, not of what the API accepts (see the README).
 */
export interface KnownProblem {
  id: string;
  kind: 'bug' | 'reading';
  description: string;
  matches(violation: ContractViolation, context: ViolationContext): boolean;
}

type Block = Record<string, unknown>;
type AnthropicMessage = { role: string; content: string | Block[] };

function anthropicMessages(request: unknown): AnthropicMessage[] {
  const messages = (request as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(messages) ? (messages as AnthropicMessage[]) : [];
}

function blocksOf(message: AnthropicMessage | undefined): Block[] {
  if (message === undefined) return [];
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** The message a violation path such as `step 0: messages[3].content[0]` points at. */
function messageIndex(violation: ContractViolation): number | undefined {
  const match = /messages\[(\d+)\]/.exec(violation.path);
  return match === null ? undefined : Number(match[1]);
}

/** Whether the text block is one the original request does not hold: compaction wrote it. */
function isInserted(block: Block | undefined, original: unknown): boolean {
  if (block?.type !== 'text' || typeof block.text !== 'string') return false;
  const text = block.text;
  return !anthropicMessages(original).some((message) =>
    blocksOf(message).some((candidate) => candidate.type === 'text' && candidate.text === text),
  );
}

/** The blocks of a user message the user wrote (tool results set aside). */
function userWritten(message: AnthropicMessage): Block[] {
  return blocksOf(message).filter((block) => block.type !== 'tool_result');
}

function lastUserWritten(request: unknown): Block[] {
  const messages = anthropicMessages(request);
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'user' && userWritten(message).length > 0) return userWritten(message);
  }
  return [];
}

const sameJson = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

export const knownProblems: readonly KnownProblem[] = [
  {
    id: 'marker-merged-ahead-of-thinking',
    kind: 'bug',
    description:
      'A removal marker (or other text compaction writes) as its own assistant message right before an ' +
      'assistant message that opens with thinking: the Anthropic provider sends consecutive assistant ' +
      'messages as one turn, which then opens with that text instead of the thinking block (the API refuses ' +
      'it). The core Anthropic converter path does the same.',
    matches(violation, { target, original, compacted }) {
      if (target !== 'anthropic') return false;
      const rules = [
        'anthropic.thinking-first',
        'anthropic.tool-loop-thinking',
        'compacted.tool-loop-thinking-kept',
      ];
      const index = messageIndex(violation);
      if (!rules.includes(violation.rule) || index === undefined) return false;
      const message = anthropicMessages(compacted)[index];
      const blocks = blocksOf(message);
      return (
        message?.role === 'assistant' &&
        isInserted(blocks[0], original) &&
        blocks.some((block) => block.type === 'thinking' || block.type === 'redacted_thinking')
      );
    },
  },
  {
    id: 'newest-request-after-tool-results-drops-loop',
    kind: 'bug',
    description:
      'The newest user message comes right after tool results: the Anthropic provider sends it in the same ' +
      'turn as the results, so the request is inside that tool loop, but the messages are separate (in the ' +
      "AI SDK as in the core converter's reading) and strategies drop the loop's assistant turn, with its " +
      'thinking, while keeping the newest request.',
    matches(violation, { target, original }) {
      if (target !== 'anthropic' || violation.rule !== 'compacted.tool-loop-thinking-kept') return false;
      const last = anthropicMessages(original).at(-1);
      const blocks = blocksOf(last);
      return (
        last?.role === 'user' &&
        blocks.some((block) => block.type === 'tool_result') &&
        blocks.some((block) => block.type !== 'tool_result')
      );
    },
  },
  {
    id: 'ongoing-tool-loop-dropped',
    kind: 'bug',
    description:
      'The request ends inside a tool loop (the tool results of the last assistant turn, after the newest ' +
      'user request) and the target is tight: strategies drop that loop, or its thinking, although the model ' +
      'is waiting for those results. The core Anthropic converter path does the same; the AI SDK path meets ' +
      'it at the second step, whose count is anchored on the input tokens the provider reported.',
    matches(violation, { target, original }) {
      if (target !== 'anthropic' || violation.rule !== 'compacted.tool-loop-thinking-kept') return false;
      const last = anthropicMessages(original).at(-1);
      return last?.role === 'user' && blocksOf(last).every((block) => block.type === 'tool_result');
    },
  },
  {
    id: 'newest-request-in-merged-user-turn',
    kind: 'reading',
    description:
      'Compaction leaves user messages in a row before the newest request (a summary, the original task), ' +
      'which the Anthropic provider, like the core converter, sends as one user message. The newest request ' +
      'is still last and verbatim, and the API joins consecutive user turns anyway, but the kit reads the ' +
      'whole message as the newest request.',
    matches(violation, { target, original, compacted }) {
      if (target !== 'anthropic' || violation.rule !== 'compacted.newest-user-request-kept') return false;
      const newest = lastUserWritten(original);
      const merged = lastUserWritten(compacted);
      return (
        newest.length > 0 &&
        merged.length > newest.length &&
        sameJson(merged.slice(merged.length - newest.length), newest)
      );
    },
  },
];

/** The known problem a violation comes from, if the check knows one. */
export function knownProblemOf(
  violation: ContractViolation,
  context: ViolationContext,
): KnownProblem | undefined {
  return knownProblems.find((problem) => problem.matches(violation, context));
}
