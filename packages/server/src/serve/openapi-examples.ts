import {
  anthropicRequest,
  coreMessages,
  openAIChatRequest,
  openAIChatToolCall,
  openAIChatToolResult,
  openAIResponsesRequest,
} from './openapi-example-requests.js';

// The OpenAPI document's examples: each request, and what `compaction serve` (no flags) answers to it. A test
// sends every request and compares the answers, times, ids and durations aside.

const offlineStrategy = ['tool-result-truncation', 'sliding-window'];
const skippedMarker = (count: number) => `[${count} earlier messages skipped to fit the context window.]`;

/** A report of the offline pipeline, where truncation finds nothing to shorten and the sliding window cuts. */
function offlineReport(format: string, before: [number, number], after: [number, number], target: number) {
  const [messagesBefore, tokensBefore] = before;
  const [messagesAfter, tokensAfter] = after;
  const stage = (name: string, tokens: number, messages: number) => ({
    name,
    tokensBefore,
    tokensAfter: tokens,
    messagesBefore,
    messagesAfter: messages,
  });
  return {
    format,
    outputFormat: format,
    strategy: offlineStrategy,
    compacted: true,
    before: { messages: messagesBefore, tokens: tokensBefore },
    after: { messages: messagesAfter, tokens: tokensAfter },
    target,
    targetReached: tokensAfter <= target,
    limit: 181_808,
    stages: [
      stage('tool-result-truncation', tokensBefore, messagesBefore),
      stage('sliding-window', tokensAfter, messagesAfter),
    ],
    usedFallback: false,
    durationMs: 1.21,
  };
}

const [anthropicTask, , , , , anthropicAnswer, anthropicNewest] = anthropicRequest.messages;
const [chatDeveloper, chatTask, , , , , chatNewest] = openAIChatRequest.messages;
const [responsesTask, , , , , responsesNewest] = openAIResponsesRequest.input;
const [coreSystem, coreTask, , , , coreNewest] = coreMessages;

/** One `POST /v1/compact` example: the request sends `conversation`, the answer has `compacted` and the report. */
function compactExample(
  summary: string,
  conversation: unknown,
  compacted: unknown,
  report: ReturnType<typeof offlineReport>,
) {
  return { summary, request: { conversation }, answer: { conversation: compacted, report } };
}

/** `POST /v1/compact`, one example per format: the request and the answer. */
export const compactExamples = {
  anthropic: compactExample(
    'An Anthropic Messages request with thinking, tool calls and results',
    anthropicRequest,
    {
      ...anthropicRequest,
      messages: [
        anthropicTask,
        anthropicAnswer,
        // The marker is a user message after the first kept model turn (never in the opening, the task):
        // Anthropic joins it to the newest request's turn.
        {
          role: 'user',
          content: [
            { type: 'text', text: skippedMarker(4) },
            { type: 'text', text: anthropicNewest!.content as string },
          ],
        },
      ],
    },
    offlineReport('anthropic', [8, 222], [5, 99], 111),
  ),
  'openai-chat': compactExample(
    'An OpenAI Chat Completions request with parallel tool calls',
    openAIChatRequest,
    {
      ...openAIChatRequest,
      // What was removed followed the opening and no model turn was kept after it: a marker there would stand
      // in the opening, so there is none (the report counts what went).
      messages: [chatDeveloper, chatTask, chatNewest],
    },
    offlineReport('openai-chat', [7, 142], [3, 41], 71),
  ),
  'openai-responses': compactExample(
    'An OpenAI Responses request with reasoning and a function call',
    openAIResponsesRequest,
    {
      ...openAIResponsesRequest,
      input: [responsesTask, responsesNewest],
    },
    offlineReport('openai-responses', [5, 86], [2, 25], 43),
  ),
  core: compactExample(
    'Core messages, as a bare list',
    coreMessages,
    [coreSystem, coreTask, coreNewest],
    offlineReport('core', [6, 94], [3, 34], 47),
  ),
};

const sessionId = 'b82749c1-6b9f-4588-8673-81c8c1bc39b0';
const budget = { contextWindow: 400, limit: 280, trigger: 238, target: 168 };

/** A session's description at a point of the examples' Chat session. */
function sessionAt(minute: number, messages: number, bytes: number, tokens: number, compactions: number) {
  const at = `2026-11-23T15:${String(minute).padStart(2, '0')}:00.000Z`;
  const expires = `2026-11-23T15:${String(minute + 30).padStart(2, '0')}:00.000Z`;
  return {
    id: sessionId,
    format: 'openai-chat',
    createdAt: '2026-11-23T15:03:00.000Z',
    lastActiveAt: at,
    expiresAt: expires,
    messages,
    bytes,
    tokens,
    budget,
    compactions,
  };
}

/** The example session at one of its states, with the Chat request of its conversation at that time. */
function sessionWith(state: ReturnType<typeof sessionAt>, messages: readonly unknown[]) {
  return { ...state, conversation: { ...openAIChatRequest, messages } };
}

const chatAfterToolCall = [...openAIChatRequest.messages, ...openAIChatToolCall];
const chatAfterToolResult = [...chatAfterToolCall, ...openAIChatToolResult];
const chatCompacted = [
  chatDeveloper,
  chatTask,
  ...openAIChatRequest.messages.slice(5),
  // After the first kept model turn, ahead of the next model turn. A server with a store archives what the
  // window dropped, under the handle the marker names.
  {
    role: 'user',
    content: '[3 earlier messages skipped to fit the context window; recall "04wgtwxkm3k" to read them.]',
  },
  ...openAIChatToolCall,
  ...openAIChatToolResult,
];

/** The manual compaction of the examples' Chat session. */
export const sessionCompactionEvent = {
  id: 'a796715a-2af3-4251-8f84-fb79bf6cd982',
  sessionId,
  round: 1,
  trigger: 'manual',
  strategy: 'pipeline',
  usedFallback: false,
  tokensBefore: 196,
  tokensAfter: 153,
  messagesBefore: 9,
  messagesAfter: 7,
  durationMs: 0.4,
  startedAt: '2026-11-23T15:09:00.000Z',
  failures: [],
  repairs: [],
  instructions: 'Keep the hotel prices.',
  details: {
    stages: [
      {
        name: 'tool-result-truncation',
        tokensBefore: 196,
        tokensAfter: 196,
        messagesBefore: 9,
        messagesAfter: 9,
        details: { shortenedResults: 0, clearedInputs: 0, tokensBefore: 196, tokensAfter: 196 },
      },
      {
        name: 'sliding-window',
        tokensBefore: 196,
        tokensAfter: 153,
        messagesBefore: 9,
        messagesAfter: 7,
        details: { removedMessages: 3, removedTurns: 1, markers: 1, shortenedTurns: 0, tokensAfter: 153 },
      },
    ],
  },
};

/**
 * A session of OpenAI Chat messages, step by step: created from a request with a small context window, the
 * model's tool call appended, then the tool's result (a tool message whose call came in the append before),
 * then a manual compaction.
 */
export const sessionExamples = {
  create: {
    request: { conversation: openAIChatRequest, config: { budget: { contextWindow: 400 } } },
    answer: { ...sessionWith(sessionAt(3, 7, 1078, 142, 0), openAIChatRequest.messages), compacted: false },
  },
  appendCall: {
    request: { messages: openAIChatToolCall },
    answer: { ...sessionWith(sessionAt(5, 8, 1206, 163, 0), chatAfterToolCall), compacted: false },
  },
  appendResult: {
    request: { messages: openAIChatToolResult },
    answer: { ...sessionWith(sessionAt(7, 9, 1478, 196, 0), chatAfterToolResult), compacted: false },
  },
  compact: {
    request: { instructions: 'Keep the hotel prices.' },
    answer: {
      ...sessionWith(sessionAt(9, 7, 1059, 153, 1), chatCompacted),
      compacted: true,
      event: sessionCompactionEvent,
    },
  },
  /** A forced compaction: it runs even when the session is under its target. */
  compactForced: { request: { instructions: 'Keep the hotel prices.', force: true } },
  read: { answer: sessionWith(sessionAt(10, 7, 1059, 153, 1), chatCompacted) },
  list: { answer: { sessions: [sessionAt(10, 7, 1059, 153, 1)] } },
  compactions: { answer: { total: 1, compactions: [sessionCompactionEvent] } },
  health: { answer: { ok: true, sessions: 1, compactions: 0 } },
};

/** An error answer. */
export const errorExample = {
  error: {
    code: 'invalid-messages',
    message:
      'conversation: not a valid core conversation: messages[0].role: unknown role "robot"; expected one of system, user, assistant, tool',
  },
};

const archivedTestRun = {
  handle: 'k3j9x0a2m1q',
  label: 'bash output',
  text:
    'FAIL test/date.test.js\n  formats in UTC\n    Expected: "1970-01-01"\n    Received: "1970-01-01T00:00:00.000Z"\n\n' +
    'Tests: 1 failed, 4 passed, 5 total',
};

/**
 * An archived item of a session, whole and its lines 2 to 3 (tests check the part against what the recall
 * tool answers).
 */
export const archiveExamples = {
  whole: archivedTestRun,
  lines: {
    handle: archivedTestRun.handle,
    label: archivedTestRun.label,
    text: '[recall "k3j9x0a2m1q" (bash output): lines 2-3 of 6]\n  formats in UTC\n    Expected: "1970-01-01"',
    truncated: false,
  },
};
