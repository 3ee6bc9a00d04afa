import { textArbitrary } from '@compaction/testing';
import fc from 'fast-check';
import { type AiSdkTarget, clientToolNames } from './ai-sdk-target.js';

/** What a user message carries besides its text; each target gets the kinds its provider converts. */
export type Attachment =
  | 'none'
  | 'image-base64'
  | 'image-bytes'
  | 'image-url'
  | 'pdf-base64'
  | 'pdf-url'
  | 'text-file'
  | 'audio-wav';

/** The item a `content` tool output carries after its text. */
export type ContentItem =
  | 'image-data'
  | 'image-url'
  | 'file-data'
  | 'file-url'
  | 'file-id'
  | 'image-file-id'
  | 'custom'
  | 'media'
  | 'none';

export type ToolOutputPlan =
  | { type: 'text' | 'error-text'; value: string }
  | { type: 'json' | 'error-json'; value: { [key: string]: string | number | boolean } }
  | { type: 'content'; text: string; item: ContentItem };

export interface ToolCallPlan {
  name: (typeof clientToolNames)[number];
  input: { [key: string]: string | number };
  output: ToolOutputPlan;
  /** A tool approval before the call ran: approved (the output stands) or denied (`execution-denied`). */
  approval: 'none' | 'approved' | 'denied';
}

/** One thought: Anthropic thinking (signed or redacted), an OpenAI reasoning item (summary parts), or plain. */
export interface ReasoningPlan {
  text: string;
  redacted: boolean;
  summaryParts: number;
}

export interface UserTurnPlan {
  text: string;
  attachment: Attachment;
  /** `content` as a string rather than parts (only without an attachment). */
  asString: boolean;
}

/**
 * One round of the agent: what the assistant did, its tools' answers, and a user follow-up. Only a round of
 * client tools may go on without one (the agent loop); the others end the assistant's turn.
 */
export type RoundPlan =
  | {
      kind: 'tools';
      reasoning: ReasoningPlan[];
      text: string | null;
      calls: ToolCallPlan[];
      /** The results split over two tool messages (the AI SDK joins consecutive tool messages). */
      splitResults: boolean;
      followUp: UserTurnPlan | null;
    }
  | {
      /** A tool the provider runs (web search): call and result in the assistant message. */
      kind: 'provider-tool';
      reasoning: ReasoningPlan[];
      query: string;
      failed: boolean;
      answer: string;
      followUp: UserTurnPlan | null;
    }
  | {
      /** An MCP call the provider runs after the user approved it (OpenAI Responses, stored items). */
      kind: 'provider-approval';
      reasoning: ReasoningPlan[];
      approved: boolean;
      answer: string;
      followUp: UserTurnPlan | null;
    }
  | {
      kind: 'answer';
      reasoning: ReasoningPlan[];
      answer: string;
      asString: boolean;
      /** A file the model generated (an image), which the assistant message carries after its text. */
      generatedFile: boolean;
      followUp: UserTurnPlan | null;
    };

export interface ConversationPlan {
  target: AiSdkTarget;
  system: string;
  /** The system prompt passed as the `system` option instead of a system message. */
  systemAsOption: boolean;
  /** Anthropic: a cache breakpoint on the system message and on the last tool result. */
  cacheBreakpoints: boolean;
  thinking: boolean;
  store: boolean;
  task: UserTurnPlan;
  rounds: RoundPlan[];
  newest: UserTurnPlan;
}

/** Settings of the generated conversations. */
export interface ConversationPlanSettings {
  minRounds?: number;
  maxRounds?: number;
  /** Longest tool result text, in characters. */
  maxResultLength?: number;
}

const leadingWords = ['Check', 'The', 'Now', 'Run', 'Fix', 'Result:', 'Output', 'Next', 'Done.', 'Reading'];

/** Prose that is never blank (the Messages API refuses whitespace-only text). */
export function proseArbitrary(maxWords: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...leadingWords), textArbitrary(maxWords))
    .map(([first, rest]) => `${first} ${rest}`);
}

/** Mostly short tool output, sometimes kilobytes: a generated passage repeated to a length. */
function resultTextArbitrary(maxLength: number): fc.Arbitrary<string> {
  const long = fc
    .tuple(proseArbitrary(30), fc.integer({ min: Math.min(200, maxLength), max: maxLength }))
    .map(([passage, length]) =>
      `${passage}\n`.repeat(Math.ceil(length / (passage.length + 1))).slice(0, length),
    );
  return fc.oneof({ weight: 3, arbitrary: proseArbitrary(16) }, { weight: 2, arbitrary: long });
}

const attachmentsByTarget: Record<AiSdkTarget, Attachment[]> = {
  anthropic: ['image-base64', 'image-bytes', 'image-url', 'pdf-base64', 'pdf-url', 'text-file'],
  'openai-chat': ['image-base64', 'image-bytes', 'image-url', 'pdf-base64', 'audio-wav'],
  'openai-responses': ['image-base64', 'image-bytes', 'image-url', 'pdf-base64', 'pdf-url'],
};

const contentItems: ContentItem[] = [
  'image-data',
  'image-url',
  'file-data',
  'file-url',
  'file-id',
  'image-file-id',
  'custom',
  'media',
  'none',
];

function userTurnArbitrary(target: AiSdkTarget): fc.Arbitrary<UserTurnPlan> {
  return fc
    .record({
      text: proseArbitrary(20),
      attachment: fc.oneof(
        { weight: 3, arbitrary: fc.constant<Attachment>('none') },
        { weight: 1, arbitrary: fc.constantFrom(...attachmentsByTarget[target]) },
      ),
      asString: fc.boolean(),
    })
    .map((turn) => ({ ...turn, asString: turn.asString && turn.attachment === 'none' }));
}

function reasoningArbitrary(target: AiSdkTarget, thinking: boolean): fc.Arbitrary<ReasoningPlan[]> {
  if (!thinking) return fc.constant([]);
  const thought = fc.record({
    text: proseArbitrary(24),
    // Redacted thinking is Anthropic's; the other targets have no such thing.
    redacted:
      target === 'anthropic'
        ? fc.integer({ min: 1, max: 4 }).map((value) => value === 1)
        : fc.constant(false),
    summaryParts: fc.integer({ min: 1, max: 2 }),
  });
  // A Responses reasoning item must be followed by the item it came with, never by another reasoning item.
  return fc.array(thought, {
    minLength: target === 'openai-chat' ? 0 : 1,
    maxLength: target === 'openai-responses' ? 1 : 2,
  });
}

function toolCallArbitrary(maxResultLength: number): fc.Arbitrary<ToolCallPlan> {
  const output: fc.Arbitrary<ToolOutputPlan> = fc.oneof(
    {
      weight: 4,
      arbitrary: resultTextArbitrary(maxResultLength).map((value) => ({ type: 'text' as const, value })),
    },
    { weight: 1, arbitrary: proseArbitrary(10).map((value) => ({ type: 'error-text' as const, value })) },
    {
      weight: 2,
      arbitrary: fc
        .record({ stdout: resultTextArbitrary(maxResultLength), exitCode: fc.integer({ min: 0, max: 2 }) })
        .map((value) => ({ type: 'json' as const, value })),
    },
    {
      weight: 1,
      arbitrary: proseArbitrary(8).map((message) => ({
        type: 'error-json' as const,
        value: { message, retry: false },
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({ text: resultTextArbitrary(maxResultLength), item: fc.constantFrom(...contentItems) })
        .map(({ text, item }) => ({ type: 'content' as const, text, item })),
    },
  );
  return fc.record({
    name: fc.constantFrom(...clientToolNames),
    input: fc.oneof(
      fc.record({ path: fc.constantFrom('src/index.ts', 'README.md', 'tests/test_app.py') }),
      fc.record({ command: proseArbitrary(6) }),
      fc.record({ query: proseArbitrary(4), limit: fc.integer({ min: 1, max: 50 }) }),
    ),
    output,
    approval: fc.oneof(
      { weight: 6, arbitrary: fc.constant<ToolCallPlan['approval']>('none') },
      { weight: 1, arbitrary: fc.constantFrom<ToolCallPlan['approval']>('approved', 'denied') },
    ),
  });
}

function roundArbitrary(
  target: AiSdkTarget,
  thinking: boolean,
  store: boolean,
  maxResultLength: number,
): fc.Arbitrary<RoundPlan> {
  const reasoning = reasoningArbitrary(target, thinking);
  const followUp = userTurnArbitrary(target);
  const tools = fc.record({
    kind: fc.constant('tools' as const),
    reasoning,
    text: fc.option(proseArbitrary(16), { nil: null }),
    calls: fc.array(toolCallArbitrary(maxResultLength), { minLength: 1, maxLength: 3 }),
    splitResults: fc.boolean(),
    followUp: fc.option(followUp, { freq: 3, nil: null }),
  });
  const answer = fc.record({
    kind: fc.constant('answer' as const),
    reasoning,
    answer: proseArbitrary(30),
    asString: fc.boolean(),
    generatedFile: fc.integer({ min: 1, max: 4 }).map((value) => value === 1),
    followUp,
  });
  const providerTool = fc.record({
    kind: fc.constant('provider-tool' as const),
    reasoning,
    query: proseArbitrary(5),
    failed: fc.integer({ min: 1, max: 5 }).map((value) => value === 1),
    answer: proseArbitrary(30),
    followUp,
  });
  const providerApproval = fc.record({
    kind: fc.constant('provider-approval' as const),
    reasoning,
    approved: fc.boolean(),
    answer: proseArbitrary(20),
    followUp,
  });
  const kinds: Array<fc.WeightedArbitrary<RoundPlan>> = [
    { weight: 8, arbitrary: tools },
    { weight: 2, arbitrary: answer },
  ];
  // Chat Completions has no tools the provider runs.
  if (target !== 'openai-chat') kinds.push({ weight: 2, arbitrary: providerTool });
  // MCP approvals are answered by reference to the stored request, so only with stored items.
  if (target === 'openai-responses' && store) kinds.push({ weight: 1, arbitrary: providerApproval });
  return fc.oneof(...kinds);
}

/** A plan of a long agent conversation for one target: what is said and done, before ids and encodings. */
export function conversationPlanArbitrary(
  target: AiSdkTarget,
  settings: ConversationPlanSettings = {},
): fc.Arbitrary<ConversationPlan> {
  const minRounds = settings.minRounds ?? 3;
  const maxRounds = Math.max(minRounds, settings.maxRounds ?? 12);
  const maxResultLength = settings.maxResultLength ?? 12_000;
  return fc
    .record({
      thinking: fc.boolean(),
      store: target === 'openai-responses' ? fc.boolean() : fc.constant(false),
    })
    .chain(({ thinking, store }) =>
      fc.record({
        target: fc.constant(target),
        system: proseArbitrary(40),
        systemAsOption: fc.integer({ min: 1, max: 4 }).map((value) => value === 1),
        cacheBreakpoints: target === 'anthropic' ? fc.boolean() : fc.constant(false),
        thinking: fc.constant(thinking),
        store: fc.constant(store),
        task: userTurnArbitrary(target),
        rounds: fc.array(roundArbitrary(target, thinking, store, maxResultLength), {
          minLength: minRounds,
          maxLength: maxRounds,
        }),
        newest: userTurnArbitrary(target),
      }),
    )
    .map((plan) => ({ ...plan, rounds: withoutFinalFollowUp(plan.rounds) }));
}

/**
 * The newest user request comes right after the last round: a follow-up before it would make two user
 * messages in a row, which the Anthropic provider sends as one turn, blurring which request is the newest.
 */
function withoutFinalFollowUp(rounds: RoundPlan[]): RoundPlan[] {
  const last = rounds.at(-1);
  if (last === undefined) return rounds;
  return [...rounds.slice(0, -1), { ...last, followUp: null }];
}
