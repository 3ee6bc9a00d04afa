import fc from 'fast-check';
import {
  type AnthropicAttachment,
  type AnthropicCitation,
  type AnthropicResultContent,
  type AnthropicServerTool,
  anthropicAnswer,
  anthropicAttachment,
  anthropicResultContent,
  anthropicServerPair,
} from './anthropic-request-parts.js';
import type { IdSource } from './id-source.js';
import type { JSONRecord } from './json-record.js';
import {
  type ConversationPlan,
  providerRequestArbitrary,
  resultTextFor,
} from './provider-request-arbitrary.js';
import type { ProviderRequestArbitrarySettings } from './provider-request-arbitrary-settings.js';
import { noneOrOneOf, occasionally, proseArbitrary, sometimes } from './request-text-arbitrary.js';

const toolNames = ['read_file', 'bash', 'edit_file', 'search_code', 'run_tests'];

interface Thought {
  text: string;
  redacted: boolean;
}

interface Call {
  name: string;
  input: JSONRecord;
  result: string;
  content: AnthropicResultContent;
  isError: boolean;
}

interface FollowUp {
  text: string;
  attachment: AnthropicAttachment;
  asString: boolean;
  /** A mid-conversation system message before the follow-up. */
  systemNote: string | null;
  /** Split over two consecutive user messages, which the API reads as one turn. */
  split: boolean;
}

type Round =
  | {
      kind: 'client';
      thought: Thought;
      text: string | null;
      calls: Call[];
      after: string | null;
      splitAfter: boolean;
    }
  | {
      kind: 'server';
      thought: Thought;
      text: string | null;
      pairs: Array<{ tool: AnthropicServerTool; text: string; failed: boolean }>;
      answer: string;
      citation: AnthropicCitation;
    }
  | { kind: 'programmatic'; thought: Thought; calls: Call[]; stdout: string; answer: string }
  | { kind: 'mcp'; thought: Thought; result: string; asBlocks: boolean; isError: boolean; answer: string }
  | { kind: 'answer'; thought: Thought; answer: string; citation: AnthropicCitation };

type ClientRound = Round & { kind: 'client' };

interface Plan extends ConversationPlan<Round, ClientRound, FollowUp> {
  system: string;
  adaptive: boolean;
  task: string;
  attachment: AnthropicAttachment;
  newestAsString: boolean;
  /**
   * The newest request written into the message of the tool results before it, as Claude Code sends the
   * user's words typed during a tool loop (when that message holds tool results).
   */
  newestWithResults: boolean;
  cacheToolResult: boolean;
}

const attachments: AnthropicAttachment[] = [
  'image-base64',
  'image-url',
  'image-file',
  'document-text',
  'document-pdf-url',
  'document-file',
  'document-content',
  'search-result',
  'container-upload',
];
const attachmentArbitrary = noneOrOneOf(attachments, 2);
const citationArbitrary = fc.constantFrom<AnthropicCitation>(
  'none',
  'char',
  'page',
  'content-block',
  'search-result',
);
const thoughtArbitrary = fc.record({ text: proseArbitrary(24), redacted: sometimes(4) });

/**
 * Generates valid Anthropic Messages requests of long agent conversations: a system prompt, an original task
 * (with images, documents, search results or uploads), many rounds of client tool calls with results of every
 * content shape and size, server tools (web search and fetch, code, bash and text-editor execution, tool search),
 * programmatic calls whose `caller` spans several assistant messages until the code execution result, MCP tool
 * use, answers with citations, follow-ups (some as mid-conversation system messages or split over two user
 * messages) and a newest user request (now and then in the message of the tool results before it, as Claude
 * Code sends it); thinking and redacted thinking with signatures when thinking is on, and up to four
 * `cache_control` breakpoints. Every request passes {@link anthropicMessagesViolations}.
 */
export function anthropicMessagesRequestArbitrary(
  settings: ProviderRequestArbitrarySettings = {},
): fc.Arbitrary<JSONRecord> {
  const resultText = resultTextFor(settings);
  const call = callArbitrary(resultText);
  const clientRound = clientRoundArbitrary(call);
  const round = roundArbitrary(clientRound, call, resultText);
  const followUp: fc.Arbitrary<FollowUp> = fc.record({
    text: proseArbitrary(),
    attachment: attachmentArbitrary,
    asString: sometimes(3),
    systemNote: occasionally(proseArbitrary(10), 8),
    split: sometimes(6),
  });
  const plan = fc.record({
    system: proseArbitrary(40),
    adaptive: fc.boolean(),
    task: proseArbitrary(40),
    attachment: attachmentArbitrary,
    newestAsString: fc.boolean(),
    newestWithResults: sometimes(3),
    cacheToolResult: fc.boolean(),
  });
  return providerRequestArbitrary(settings, { plan, round, finalLoop: clientRound, followUp }, buildRequest);
}

/** A call of a client tool, with a result of every content shape (a plain string twice as often). */
function callArbitrary(resultText: fc.Arbitrary<string>): fc.Arbitrary<Call> {
  return fc.record({
    name: fc.constantFrom(...toolNames),
    input: fc.oneof(
      fc.record({ path: fc.constantFrom('src/index.ts', 'README.md', 'tests/test_app.py') }),
      fc.record({ command: proseArbitrary(6) }),
      fc.constant({}),
    ),
    result: resultText,
    content: fc.constantFrom<AnthropicResultContent>(
      'string',
      'string',
      'text',
      'text-and-image',
      'search-result',
      'document',
      'tool-reference',
      'browser-state',
    ),
    isError: sometimes(8),
  });
}

/** A round of client tool calls, the round a tool loop is made of. */
function clientRoundArbitrary(call: fc.Arbitrary<Call>): fc.Arbitrary<ClientRound> {
  return fc.record({
    kind: fc.constant('client' as const),
    thought: thoughtArbitrary,
    text: fc.option(proseArbitrary(), { nil: null }),
    calls: fc.array(call, { minLength: 1, maxLength: 3 }),
    after: occasionally(proseArbitrary(), 3),
    splitAfter: fc.boolean(),
  });
}

/** Any round, client tool calls most often, then server tools, then programmatic calls, MCP and plain answers. */
function roundArbitrary(
  clientRound: fc.Arbitrary<ClientRound>,
  call: fc.Arbitrary<Call>,
  resultText: fc.Arbitrary<string>,
): fc.Arbitrary<Round> {
  return fc.oneof(
    { weight: 5, arbitrary: clientRound },
    { weight: 2, arbitrary: serverRoundArbitrary(resultText) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('programmatic' as const),
        thought: thoughtArbitrary,
        calls: fc.array(call, { minLength: 1, maxLength: 3 }),
        stdout: resultText,
        answer: proseArbitrary(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('mcp' as const),
        thought: thoughtArbitrary,
        result: resultText,
        asBlocks: fc.boolean(),
        isError: sometimes(6),
        answer: proseArbitrary(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('answer' as const),
        thought: thoughtArbitrary,
        answer: proseArbitrary(30),
        citation: citationArbitrary,
      }),
    },
  );
}

/** A round of server tool calls with their results, then an answer (citing web search results when it ran). */
function serverRoundArbitrary(resultText: fc.Arbitrary<string>): fc.Arbitrary<Round & { kind: 'server' }> {
  return fc.record({
    kind: fc.constant('server' as const),
    thought: thoughtArbitrary,
    text: fc.option(proseArbitrary(), { nil: null }),
    pairs: fc.array(
      fc.record({
        tool: fc.constantFrom<AnthropicServerTool>(
          'web_search',
          'web_fetch',
          'code_execution',
          'bash_code_execution',
          'text_editor_code_execution',
          'tool_search_tool_regex',
        ),
        text: resultText,
        failed: sometimes(6),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    answer: proseArbitrary(),
    citation: fc.constantFrom<AnthropicCitation>('none', 'web-search'),
  });
}

/**
 * The request a plan describes: the task (a cache breakpoint on it), each round after the follow-up that a
 * previous answer calls for, the newest request, and the tool loop the conversation may end in.
 */
function buildRequest(plan: Plan, ids: IdSource): JSONRecord {
  const writer = requestWriter(plan, ids);
  const { messages, addAssistant } = writer;
  const ephemeral = { type: 'ephemeral' };
  messages.push({
    role: 'user',
    content: [
      ...anthropicAttachment(plan.attachment, plan.task, ids),
      { type: 'text', text: plan.task, cache_control: ephemeral },
    ],
  });
  for (const { round, followUp } of plan.rounds) {
    if (messages.at(-1)?.role === 'assistant') writer.addFollowUp(followUp);
    switch (round.kind) {
      case 'client':
        writer.addClientRound(round);
        break;
      case 'server':
        addAssistant(round.thought, round.text, serverRoundBlocks(round, writer.thoughtBlocks, ids));
        break;
      case 'programmatic':
        addProgrammaticRound(round, messages, ids, addAssistant);
        break;
      case 'mcp':
        addAssistant(round.thought, null, mcpRoundBlocks(round, ids));
        break;
      case 'answer':
        addAssistant(round.thought, null, [anthropicAnswer(round.answer, round.citation)]);
        break;
    }
  }
  addNewestRequest(plan, messages);
  if (plan.endsInToolLoop) writer.addClientRound({ ...plan.finalLoop, after: null });

  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 8192,
    system: [
      { type: 'text', text: plan.system },
      { type: 'text', text: 'Use the tools to work in the repository.', cache_control: ephemeral },
    ],
    messages,
    tools: anthropicTools(),
    mcp_servers: [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'docs' }],
    ...(plan.thinking
      ? { thinking: plan.adaptive ? { type: 'adaptive' } : { type: 'enabled', budget_tokens: 4096 } }
      : {}),
  };
}

type AddAssistant = (thought: Thought, text: string | null, blocks: JSONRecord[]) => void;

/**
 * The messages of a request as they are written, and the steps that write them. The first tool result of the
 * conversation carries a cache breakpoint when the plan asks for one, so the writer holds that state too.
 */
function requestWriter(plan: Plan, ids: IdSource) {
  const messages: JSONRecord[] = [];
  let cacheToolResult = plan.cacheToolResult;
  const thoughtBlocks = (thought: Thought): JSONRecord[] => {
    if (!plan.thinking) return [];
    return [
      thought.redacted
        ? { type: 'redacted_thinking', data: ids.token() }
        : { type: 'thinking', thinking: thought.text, signature: ids.token() },
    ];
  };
  // Every assistant message opens with its plan.thinking, then the text it says before its tool calls, if any.
  const addAssistant: AddAssistant = (thought, text, blocks) => {
    const opening = text === null ? [] : [{ type: 'text', text }];
    messages.push({ role: 'assistant', content: [...thoughtBlocks(thought), ...opening, ...blocks] });
  };
  const addFollowUp = (followUp: FollowUp) => {
    if (followUp.systemNote !== null) messages.push({ role: 'system', content: followUp.systemNote });
    const attachment = anthropicAttachment(followUp.attachment, followUp.text, ids);
    const text = { type: 'text', text: followUp.text };
    if (followUp.split && attachment.length > 0) {
      messages.push({ role: 'user', content: attachment }, { role: 'user', content: [text] });
    } else if (followUp.asString && attachment.length === 0) {
      messages.push({ role: 'user', content: followUp.text });
    } else {
      messages.push({ role: 'user', content: [...attachment, text] });
    }
  };
  const addClientRound = (round: ClientRound) => {
    const uses = round.calls.map((call) => ({
      type: 'tool_use',
      id: ids.next('toolu'),
      name: call.name,
      input: call.input,
    }));
    addAssistant(round.thought, round.text, uses);
    const results: JSONRecord[] = round.calls.map((call, index) => ({
      type: 'tool_result',
      tool_use_id: uses[index]!.id,
      content: anthropicResultContent(call.content, call.result),
      ...(call.isError ? { is_error: true } : {}),
    }));
    if (cacheToolResult) {
      results[0] = { ...results[0], cache_control: { type: 'ephemeral' } };
      cacheToolResult = false;
    }
    if (round.after === null) {
      messages.push({ role: 'user', content: results });
    } else if (round.splitAfter) {
      messages.push(
        { role: 'user', content: results },
        { role: 'user', content: [{ type: 'text', text: round.after }] },
      );
    } else {
      messages.push({ role: 'user', content: [...results, { type: 'text', text: round.after }] });
    }
  };
  return { messages, thoughtBlocks, addAssistant, addFollowUp, addClientRound };
}

/** The blocks of a server round: each call with its result, then the answer. */
function serverRoundBlocks(
  round: Round & { kind: 'server' },
  thoughtBlocks: (thought: Thought) => JSONRecord[],
  ids: IdSource,
): JSONRecord[] {
  const pairs = round.pairs.flatMap((pair, index) => [
    // Interleaved plan.thinking may sit between server calls, once the message has opened with plan.thinking.
    ...(index > 0 && index % 2 === 0 ? thoughtBlocks(round.thought) : []),
    ...anthropicServerPair(pair.tool, pair.text, pair.failed, ids),
  ]);
  const cited = round.pairs.some((pair) => pair.tool === 'web_search') ? round.citation : 'none';
  return [...pairs, anthropicAnswer(round.answer, cited)];
}

/** The blocks of an MCP round: the tool use, its result in the same message, and the answer. */
function mcpRoundBlocks(round: Round & { kind: 'mcp' }, ids: IdSource): JSONRecord[] {
  const id = ids.next('mcptoolu');
  return [
    {
      type: 'mcp_tool_use',
      id,
      name: 'search_docs',
      server_name: 'docs',
      input: { query: round.answer.slice(0, 30) },
    },
    {
      type: 'mcp_tool_result',
      tool_use_id: id,
      content: round.asBlocks ? [{ type: 'text', text: round.result }] : round.result,
      ...(round.isError ? { is_error: true } : {}),
    },
    { type: 'text', text: round.answer },
  ];
}

/**
 * The newest request: a user message of its own, or (now and then) written into the message of the tool results
 * before it, as Claude Code sends the words a user typed during a tool loop.
 */
function addNewestRequest(plan: Plan, messages: JSONRecord[]): void {
  const last = messages.at(-1)!;
  const withResults =
    plan.newestWithResults &&
    last.role === 'user' &&
    (last.content as JSONRecord[]).some((block) => block.type === 'tool_result');
  if (withResults) {
    messages[messages.length - 1] = {
      ...last,
      content: [...(last.content as JSONRecord[]), { type: 'text', text: plan.newest }],
    };
  } else {
    messages.push({
      role: 'user',
      content: plan.newestAsString ? plan.newest : [{ type: 'text', text: plan.newest }],
    });
  }
}

/**
 * Code execution calls client tools: the `server_tool_use` stays open over several assistant messages, each
 * `tool_use` naming it as `caller`, until the code execution result arrives with the answer.
 */
function addProgrammaticRound(
  round: Round & { kind: 'programmatic' },
  messages: JSONRecord[],
  ids: IdSource,
  addAssistant: AddAssistant,
): void {
  const serverId = ids.next('srvtoolu');
  round.calls.forEach((call, index) => {
    const use = {
      type: 'tool_use',
      id: ids.next('toolu'),
      name: call.name,
      input: call.input,
      caller: { type: 'code_execution_20260120', tool_id: serverId },
    };
    const opening =
      index === 0
        ? [
            {
              type: 'server_tool_use',
              id: serverId,
              name: 'code_execution',
              input: { code: 'await run_tests()' },
            },
          ]
        : [];
    addAssistant(round.thought, null, [...opening, use]);
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: use.id, content: call.result }],
    });
  });
  addAssistant(round.thought, null, [
    {
      type: 'code_execution_tool_result',
      tool_use_id: serverId,
      content: {
        type: 'code_execution_result',
        stdout: round.stdout,
        stderr: '',
        return_code: 0,
        content: [],
      },
    },
    { type: 'text', text: round.answer },
  ]);
}

function anthropicTools(): JSONRecord[] {
  return [
    ...toolNames.map((name) => ({
      name,
      description: `The ${name} tool.`,
      input_schema: { type: 'object', properties: {} },
      allowed_callers: ['direct', 'code_execution_20260120'],
    })),
    { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
    { type: 'web_fetch_20250910', name: 'web_fetch' },
    { type: 'code_execution_20260120', name: 'code_execution' },
    {
      type: 'tool_search_tool_regex_20251119',
      name: 'tool_search_tool_regex',
      cache_control: { type: 'ephemeral' },
    },
  ];
}
