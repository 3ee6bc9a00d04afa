import type {
  AssistantMessage,
  JSONValue,
  Message,
  SystemMessage,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from '@compaction/core';
import { withCompactionMetadata } from '@compaction/core';
import fc from 'fast-check';

const vocabulary = [
  'the',
  'agent',
  'reads',
  'file',
  'src/index.ts',
  'error',
  'test',
  'passed',
  'failed',
  'function',
  'return',
  'const',
  '{',
  '}',
  '(',
  ')',
  '=>',
  'import',
  'npm',
  'run',
  'build',
  '42',
  '3.14',
  'TypeError:',
  'undefined',
  'résumé',
  '日本語',
  '中文',
  '<|endoftext|>',
  'AAAAQUJDRA==',
  '\n',
  '  ',
  'path/to/module.py',
  'SELECT',
  '*',
];

/** Words from a small vocabulary that mixes prose, code, numbers, CJK, base64 and special-token strings. */
export function textArbitrary(maxWords = 40): fc.Arbitrary<string> {
  return fc
    .array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: maxWords })
    .map((words) => words.join(' '));
}

/** A text far larger than usual budgets: a single message that alone can exceed the whole budget. */
export function hugeTextArbitrary(): fc.Arbitrary<string> {
  return fc
    .tuple(textArbitrary(8), fc.integer({ min: 500, max: 4000 }))
    .map(([text, times]) => `${text} `.repeat(times));
}

const jsonInputArbitrary: fc.Arbitrary<JSONValue> = fc.oneof(
  fc.record({ path: fc.constantFrom('src/a.ts', 'README.md', 'tests/test_x.py') }),
  fc.record({ command: textArbitrary(6) }),
  fc.record({ query: textArbitrary(4), limit: fc.integer({ min: 1, max: 100 }) }),
  fc.constant({}),
);

type Step =
  | { kind: 'user'; text: string; pinned: boolean; huge: boolean }
  | { kind: 'assistant'; text: string; reasoning: boolean; pinned: boolean }
  | {
      kind: 'tools';
      text: string | null;
      reasoning: boolean;
      calls: Array<{ name: string; input: JSONValue; output: string; isError: boolean; parts: boolean }>;
      /** One tool message for all results, or one per result. */
      separateMessages: boolean;
    };

/** True about one time in five. */
function rarely(): fc.Arbitrary<boolean> {
  return fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
}

const toolNames = ['read_file', 'bash', 'edit_file', 'search', 'write_file'];

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('user' as const),
      text: textArbitrary(),
      pinned: rarely(),
      huge: fc.constant(false),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('user' as const),
      text: hugeTextArbitrary(),
      pinned: fc.constant(false),
      huge: fc.constant(true),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('assistant' as const),
      text: textArbitrary(),
      reasoning: fc.boolean(),
      pinned: rarely(),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      text: fc.option(textArbitrary(10), { nil: null }),
      reasoning: fc.boolean(),
      calls: fc.array(
        fc.record({
          name: fc.constantFrom(...toolNames),
          input: jsonInputArbitrary,
          output: fc.oneof(
            { weight: 4, arbitrary: textArbitrary(200) },
            { weight: 1, arbitrary: hugeTextArbitrary() },
          ),
          isError: fc.boolean(),
          parts: fc.boolean(),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      separateMessages: fc.boolean(),
    }),
  },
);

/** A message of a multi-message opening, besides the system prompt and the task. */
type OpeningStep = { role: 'system' | 'user'; text: string; beforeTask: boolean };

/** Tags agents wrap context in, in user messages of the opening (Codex, Claude Code, and others). */
const contextTags = ['environment_context', 'user_instructions', 'system-reminder', 'context'];

/**
 * What agents send before the first model turn besides a system prompt and the task: developer messages
 * (system messages in core), user messages holding context in a tag, and further user messages, before or
 * after the task.
 */
const openingStepArbitrary: fc.Arbitrary<OpeningStep> = fc.oneof(
  fc.record({ role: fc.constant('system' as const), text: textArbitrary(20), beforeTask: fc.boolean() }),
  fc.record({
    role: fc.constant('user' as const),
    text: fc
      .tuple(fc.constantFrom(...contextTags), textArbitrary(20))
      .map(([tag, text]) => `<${tag}>\n${text}\n</${tag}>`),
    beforeTask: fc.boolean(),
  }),
  fc.record({ role: fc.constant('user' as const), text: textArbitrary(20), beforeTask: fc.boolean() }),
);

/** Settings of {@link conversationArbitrary}. */
export interface ConversationArbitrarySettings {
  /** Most steps (a step is a user message, an assistant message, or a tool-calling turn). Default 24. */
  maxSteps?: number;
  /** Fewest steps. Default 0. */
  minSteps?: number;
  /**
   * Whether every conversation opens with several messages before the first model turn (developer-like system
   * messages, context messages, more than one user message). Default `false`: the system prompt and the task.
   */
  multiMessageOpening?: boolean;
}

/**
 * Generates valid conversations of every shape the rules must hold for: with and without a system prompt,
 * a first user task, openings of several messages before the first model turn (developer-like system
 * messages, user messages holding context tags, more than one user message), tool-call batches (parallel
 * calls, results in one tool message or several), reasoning parts with signatures, pinned messages, huge
 * single messages, calls still awaiting results at the end, and the empty conversation.
 */
export function conversationArbitrary(settings: ConversationArbitrarySettings = {}): fc.Arbitrary<Message[]> {
  const maxSteps = settings.maxSteps ?? 24;
  const multi = settings.multiMessageOpening === true;
  const conversations = fc
    .record({
      system: fc.option(textArbitrary(30), { nil: null }),
      task: multi ? textArbitrary(30) : fc.option(textArbitrary(30), { freq: 10, nil: null }),
      opening: multi
        ? fc.array(openingStepArbitrary, { minLength: 1, maxLength: 4 })
        : fc.constant([] as OpeningStep[]),
      steps: fc.array(stepArbitrary, {
        minLength: Math.min(settings.minSteps ?? 0, maxSteps),
        maxLength: maxSteps,
      }),
      endWithUser: fc.boolean(),
      finalUserText: textArbitrary(12),
      pendingAtEnd: rarely(),
    })
    .map(buildConversation);
  if (multi) return conversations;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant([] as Message[]) },
    { weight: 30, arbitrary: conversations },
  );
}

function buildConversation(plan: {
  system: string | null;
  task: string | null;
  opening: OpeningStep[];
  steps: Step[];
  endWithUser: boolean;
  finalUserText: string;
  pendingAtEnd: boolean;
}): Message[] {
  const messages: Message[] = [];
  let callNumber = 0;
  if (plan.system !== null) {
    messages.push({ role: 'system', content: [{ type: 'text', text: plan.system }] } satisfies SystemMessage);
  }
  const openingMessage = ({ role, text }: OpeningStep): Message => ({
    role,
    content: [{ type: 'text', text }],
  });
  for (const step of plan.opening) if (step.beforeTask) messages.push(openingMessage(step));
  if (plan.task !== null) messages.push(userText(plan.task));
  for (const step of plan.opening) if (!step.beforeTask) messages.push(openingMessage(step));
  plan.steps.forEach((step, index) => {
    const pending = plan.pendingAtEnd && !plan.endWithUser && index === plan.steps.length - 1;
    switch (step.kind) {
      case 'user': {
        const message = userText(step.text);
        messages.push(step.pinned ? withCompactionMetadata(message, { pinned: true }) : message);
        return;
      }
      case 'assistant': {
        const message: AssistantMessage = {
          role: 'assistant',
          content: [
            ...(step.reasoning
              ? [{ type: 'reasoning' as const, text: 'thinking', signature: `sig-${index}` }]
              : []),
            { type: 'text', text: step.text },
          ],
        };
        messages.push(step.pinned ? withCompactionMetadata(message, { pinned: true }) : message);
        return;
      }
      case 'tools': {
        const calls: ToolCallPart[] = step.calls.map((call) => ({
          type: 'tool-call',
          toolCallId: `call_${++callNumber}`,
          toolName: call.name,
          input: call.input,
        }));
        messages.push({
          role: 'assistant',
          content: [
            ...(step.reasoning
              ? [{ type: 'reasoning' as const, text: 'planning', signature: `sig-${index}` }]
              : []),
            ...(step.text === null ? [] : [{ type: 'text' as const, text: step.text }]),
            ...calls,
          ],
        });
        if (pending) return;
        const results: ToolResultPart[] = step.calls.map((call, callIndex) => ({
          type: 'tool-result',
          toolCallId: calls[callIndex]!.toolCallId,
          toolName: call.name,
          output: call.parts ? [{ type: 'text', text: call.output }] : call.output,
          ...(call.isError ? { isError: true } : {}),
        }));
        if (step.separateMessages) {
          for (const result of results)
            messages.push({ role: 'tool', content: [result] } satisfies ToolMessage);
        } else {
          messages.push({ role: 'tool', content: results } satisfies ToolMessage);
        }
        return;
      }
    }
  });
  if (plan.endWithUser && messages.length > 0) messages.push(userText(plan.finalUserText));
  return messages;
}

function userText(text: string): UserMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

/**
 * Generates malformed histories: unknown roles, tool results whose call is missing, tool inputs that are not
 * JSON, parts a role may not carry, missing content. Strategies must answer these with a typed error or a
 * documented repair, never a crash.
 */
export function malformedConversationArbitrary(): fc.Arbitrary<unknown[]> {
  const damage = fc.constantFrom<(messages: Message[]) => unknown[]>(
    (messages) => [...messages, { role: 'robot', content: [{ type: 'text', text: 'beep' }] }],
    (messages) => [
      ...messages,
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'nowhere', toolName: 'bash', output: 'x' }],
      },
    ],
    (messages) => [
      ...messages,
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'bad', toolName: 'bash', input: () => 1 }],
      },
    ],
    (messages) => [...messages, { role: 'system', content: [{ type: 'image', image: 'abc' }] }],
    (messages) => [...messages, { role: 'user' }],
    (messages) => [...messages, { role: 'user', content: 'plain string instead of parts' }],
    (messages) => [
      ...messages,
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'x', toolName: 'bash', input: Number.NaN }],
      },
    ],
    (messages) => [...messages, null],
  );
  return fc.tuple(conversationArbitrary({ maxSteps: 8 }), damage).map(([messages, apply]) => apply(messages));
}
