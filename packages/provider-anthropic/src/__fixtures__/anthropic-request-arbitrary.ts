import fc from 'fast-check';
import type { AnthropicContentBlock, AnthropicMessage, AnthropicRequest } from '../anthropic-request.js';

/**
 * Messages API requests of every shape the SDK's `MessageCreateParams` types allow for `system` and
 * `messages`: every block type with and without its optional fields, string and block content, system
 * messages between turns, consecutive turns of one role, unknown fields and block types, and keys in any
 * order. Tool pairing is valid (each `tool_use` answered by the next user turn, results first), as the API
 * requires, and server tools are referred to from later turns (programmatic tool calling, `pause_turn`).
 */
export function anthropicRequestArbitrary(): fc.Arbitrary<AnthropicRequest> {
  return fc
    .record(
      {
        system: fc.oneof(text, fc.array(shuffled(textBlock), { maxLength: 3 })),
        turns: fc.array(turnSpec, { maxLength: 12 }),
      },
      { requiredKeys: ['turns'] },
    )
    .map(({ system, turns }) => ({
      ...(system === undefined ? {} : { system: system as AnthropicRequest['system'] }),
      messages: assemble(turns),
    }));
}

const text = fc.string({ maxLength: 12 });
const identifier = fc.constantFrom('a', 'b', 'c', 'd');
/** JSON values without `__proto__` keys, which no request carries. */
const json = fc.jsonValue({ maxDepth: 2 }).filter((value) => !JSON.stringify(value).includes('__proto__'));
const cacheControl = fc.oneof(
  fc.constant({ type: 'ephemeral' }),
  fc.record({ type: fc.constant('ephemeral'), ttl: fc.constantFrom('5m', '1h') }),
  fc.constant(null),
);

/** A record arbitrary whose keys come out in a random order. */
function shuffled<T extends object>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return arbitrary.chain((value) => {
    const keys = Object.keys(value);
    return fc
      .shuffledSubarray(keys, { minLength: keys.length, maxLength: keys.length })
      .map((order) => Object.fromEntries(order.map((key) => [key, value[key as keyof T]])) as T);
  });
}

/** Adds, sometimes, a field no SDK type has (a newer API version's). */
function withUnknownField<T extends object>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc
    .tuple(arbitrary, fc.option(json, { nil: undefined }))
    .map(([value, extra]) => (extra === undefined ? value : { ...value, future_field: extra }));
}

function block<T extends object>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<AnthropicContentBlock> {
  return shuffled(withUnknownField(arbitrary)) as unknown as fc.Arbitrary<AnthropicContentBlock>;
}

const citation = fc.record({
  type: fc.constant('char_location'),
  cited_text: text,
  document_index: fc.nat(3),
  start_char_index: fc.nat(9),
  end_char_index: fc.nat(9),
});
const textBlock = fc.record(
  {
    type: fc.constant('text'),
    text,
    cache_control: cacheControl,
    citations: fc.oneof(fc.constant(null), fc.array(shuffled(citation), { maxLength: 1 })),
  },
  { requiredKeys: ['type', 'text'] },
);
const imageSource = fc.oneof(
  shuffled(
    fc.record({
      type: fc.constant('base64'),
      media_type: fc.constantFrom('image/png', 'image/jpeg'),
      data: fc.base64String({ maxLength: 8 }),
    }),
  ),
  shuffled(fc.record({ type: fc.constant('url'), url: fc.webUrl() })),
  shuffled(fc.record({ type: fc.constant('file'), file_id: identifier })),
);
const imageBlock = fc.record(
  { type: fc.constant('image'), source: imageSource, cache_control: cacheControl },
  { requiredKeys: ['type', 'source'] },
);
const documentSource = fc.oneof(
  shuffled(
    fc.record({
      type: fc.constant('base64'),
      media_type: fc.constant('application/pdf'),
      data: fc.base64String({ maxLength: 8 }),
    }),
  ),
  shuffled(fc.record({ type: fc.constant('text'), media_type: fc.constant('text/plain'), data: text })),
  shuffled(
    fc.record({
      type: fc.constant('content'),
      content: fc.oneof(text, fc.array(shuffled(textBlock), { maxLength: 2 })),
    }),
  ),
  shuffled(fc.record({ type: fc.constant('url'), url: fc.webUrl() })),
  shuffled(fc.record({ type: fc.constant('file'), file_id: identifier })),
);
const documentBlock = fc.record(
  {
    type: fc.constant('document'),
    source: documentSource,
    cache_control: cacheControl,
    citations: fc.oneof(fc.constant(null), fc.record({ enabled: fc.boolean() })),
    context: fc.oneof(text, fc.constant(null)),
    title: fc.oneof(text, fc.constant(null)),
  },
  { requiredKeys: ['type', 'source'] },
);
const searchResultBlock = fc.record(
  {
    type: fc.constant('search_result'),
    content: fc.array(shuffled(textBlock), { maxLength: 2 }),
    source: fc.webUrl(),
    title: text,
    cache_control: cacheControl,
    citations: fc.record({ enabled: fc.boolean() }),
  },
  { requiredKeys: ['type', 'content', 'source', 'title'] },
);
const containerUploadBlock = fc.record(
  { type: fc.constant('container_upload'), file_id: identifier, cache_control: cacheControl },
  { requiredKeys: ['type', 'file_id'] },
);
const toolReferenceBlock = fc.record({ type: fc.constant('tool_reference'), tool_name: identifier });
const unknownBlock = fc.record({ type: fc.constant('future_block'), payload: json });
const thinkingBlock = fc.record({
  type: fc.constant('thinking'),
  thinking: text,
  signature: fc.base64String({ minLength: 4, maxLength: 12 }),
});
const redactedThinkingBlock = fc.record({
  type: fc.constant('redacted_thinking'),
  data: fc.base64String({ minLength: 4, maxLength: 12 }),
});

/** What a user turn holds besides tool results. */
const userBlock = fc.oneof(
  { weight: 4, arbitrary: block(textBlock) },
  block(imageBlock),
  block(documentBlock),
  block(searchResultBlock),
  block(containerUploadBlock),
  block(unknownBlock),
);
/** Parts of a tool result's content. */
const resultContentBlock = fc.oneof(
  { weight: 3, arbitrary: block(textBlock) },
  block(imageBlock),
  block(documentBlock),
  block(searchResultBlock),
  block(toolReferenceBlock),
);
const toolResultFields = fc.record(
  {
    content: fc.oneof(text, fc.array(resultContentBlock, { maxLength: 3 })),
    is_error: fc.boolean(),
    cache_control: cacheControl,
  },
  { requiredKeys: [] },
);
const caller = fc.oneof(
  fc.constant({ type: 'direct' }),
  fc.record({ type: fc.constantFrom('code_execution_20250825', 'code_execution_20260120') }),
);
const toolInput = fc.oneof(
  { weight: 5, arbitrary: fc.dictionary(identifier, json, { maxKeys: 3 }) },
  json,
  fc.constant(undefined),
);

/** An assistant block; ids and references are filled in by {@link assemble}. */
type AssistantBlockSpec =
  | { kind: 'block'; block: AnthropicContentBlock }
  | { kind: 'tool_use'; fields: Record<string, unknown>; input: unknown; programmatic: boolean }
  | { kind: 'server_tool_use'; fields: Record<string, unknown> }
  | { kind: 'server_result'; type: string; fields: Record<string, unknown> };

const assistantBlockSpec: fc.Arbitrary<AssistantBlockSpec> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .oneof(
        { weight: 3, arbitrary: block(textBlock) },
        block(thinkingBlock),
        block(redactedThinkingBlock),
        block(unknownBlock),
        block(imageBlock),
        block(documentBlock),
      )
      .map((value) => ({ kind: 'block' as const, block: value })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        fields: fc.record(
          { cache_control: cacheControl, caller, toolset_name: fc.oneof(identifier, fc.constant(null)) },
          { requiredKeys: [] },
        ),
        input: toolInput,
        programmatic: fc.boolean(),
      })
      .map((spec) => ({ kind: 'tool_use' as const, ...spec })),
  },
  fc
    .record({ input: json, caller }, { requiredKeys: ['input'] })
    .map((fields) => ({ kind: 'server_tool_use' as const, fields })),
  fc
    .record({
      type: fc.constantFrom(
        'web_search_tool_result',
        'code_execution_tool_result',
        'bash_code_execution_tool_result',
        'web_fetch_tool_result',
      ),
      fields: fc.record({ content: json, cache_control: cacheControl }, { requiredKeys: ['content'] }),
    })
    .map((spec) => ({ kind: 'server_result' as const, ...spec })),
);

type TurnSpec =
  | { role: 'user'; content: string | AnthropicContentBlock[]; results: Array<Record<string, unknown>> }
  | { role: 'assistant'; content: string | AssistantBlockSpec[] }
  | { role: 'system'; content: string | AnthropicContentBlock[] };

const turnSpec: fc.Arbitrary<{ spec: TurnSpec; fields?: Record<string, unknown>; order: number[] }> =
  fc.record(
    {
      spec: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.record({
            role: fc.constant('user' as const),
            content: fc.oneof(text, fc.array(userBlock, { maxLength: 4 })),
            results: fc.array(shuffled(toolResultFields), { minLength: 1, maxLength: 3 }),
          }),
        },
        {
          weight: 4,
          arbitrary: fc.record({
            role: fc.constant('assistant' as const),
            content: fc.oneof(text, fc.array(assistantBlockSpec, { maxLength: 5 })),
          }),
        },
        fc.record({
          role: fc.constant('system' as const),
          content: fc.oneof(text, fc.array(block(textBlock), { maxLength: 2 })),
        }),
      ),
      fields: fc.dictionary(fc.constantFrom('id', 'future_message_field'), json, { maxKeys: 1 }),
      // Whether `content` comes before `role`, and where the other fields go.
      order: fc.array(fc.nat(2), { minLength: 3, maxLength: 3 }),
    },
    { requiredKeys: ['spec', 'order'] },
  );

/**
 * Builds the messages of the turn specs: starts with a user turn, gives every tool use a unique id, answers
 * the calls of each assistant turn at the start of the next user turn (adding one when none follows), and
 * points server tool results and programmatic callers at server tool uses opened so far.
 */
function assemble(
  specs: ReadonlyArray<{ spec: TurnSpec; fields?: Record<string, unknown>; order: number[] }>,
): AnthropicMessage[] {
  const messages: AnthropicMessage[] = [];
  let nextId = 1;
  const serverIds: string[] = [];
  let pending: string[] = [];
  let results: Array<Record<string, unknown>> = [{}];
  const push = (role: AnthropicMessage['role'], content: AnthropicMessage['content'], extra?: unknown) => {
    const { fields, order } = (extra ?? {}) as { fields?: Record<string, unknown>; order?: number[] };
    const entries: Array<[string, unknown]> = [
      ['role', role],
      ['content', content],
      ...Object.entries(fields ?? {}),
    ];
    const ordered = entries
      .map((entry, index) => ({ entry, rank: (order?.[index] ?? 0) * 10 + index }))
      .sort((left, right) => left.rank - right.rank)
      .map(({ entry }) => entry);
    messages.push(Object.fromEntries(ordered) as AnthropicMessage);
  };
  const answer = (): AnthropicContentBlock[] =>
    pending.map((id, index) => {
      const fields = results[index % results.length]!;
      const entries = Object.entries({ type: 'tool_result', tool_use_id: id, ...fields });
      // The generated fields come first half of the time (Claude Code writes `tool_use_id` first).
      return Object.fromEntries(index % 2 === 0 ? entries : entries.reverse()) as AnthropicContentBlock;
    });
  for (const turn of specs) {
    const { spec } = turn;
    if (spec.role === 'assistant' && messages.every((message) => message.role === 'system')) {
      push('user', 'start');
    }
    if (spec.role === 'assistant') {
      if (pending.length > 0) push('user', answer());
      pending = [];
      push('assistant', assistantContent(spec.content), turn);
    } else if (spec.role === 'user') {
      const content =
        pending.length === 0
          ? spec.content
          : [...answer(), ...(typeof spec.content === 'string' ? [] : spec.content)];
      results = spec.results;
      pending = [];
      push('user', content, turn);
    } else if (pending.length === 0) {
      push('system', spec.content, turn);
    }
  }
  return messages;

  function assistantContent(content: string | AssistantBlockSpec[]): AnthropicMessage['content'] {
    if (typeof content === 'string') return content;
    return content.map((item) => {
      switch (item.kind) {
        case 'block':
          return item.block;
        case 'tool_use': {
          const id = `toolu_${nextId++}`;
          pending.push(id);
          const { caller, ...fields } = item.fields as { caller?: { type: string } };
          // A programmatic call names the code execution it runs in (the latest opened, or an unknown one).
          const callerField =
            caller === undefined
              ? {}
              : {
                  caller:
                    caller.type === 'direct' && !item.programmatic
                      ? caller
                      : { type: 'code_execution_20260120', tool_id: serverIds.at(-1) ?? 'srvtoolu_0' },
                };
          return {
            id,
            ...(item.input === undefined ? {} : { input: item.input }),
            name: 'tool',
            type: 'tool_use',
            ...fields,
            ...callerField,
          } as AnthropicContentBlock;
        }
        case 'server_tool_use': {
          const id = `srvtoolu_${nextId++}`;
          serverIds.push(id);
          return {
            type: 'server_tool_use',
            id,
            name: 'code_execution',
            ...item.fields,
          } as AnthropicContentBlock;
        }
        default:
          return {
            type: item.type,
            tool_use_id: serverIds.at(-1) ?? 'srvtoolu_0',
            ...item.fields,
          } as AnthropicContentBlock;
      }
    });
  }
}
