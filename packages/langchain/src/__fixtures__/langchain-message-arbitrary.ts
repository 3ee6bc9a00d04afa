import { textArbitrary } from '@compaction/testing';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import fc from 'fast-check';

type Item = Record<string, unknown>;

/** Records with the usual prototype, as LangChain's messages and blocks have. */
const record = <Shape extends Record<string, fc.Arbitrary<unknown>>>(
  shape: Shape,
): fc.Arbitrary<{ [Key in keyof Shape]: Shape[Key] extends fc.Arbitrary<infer Value> ? Value : never }> =>
  fc.record(shape, { noNullPrototype: true }) as never;

/** Adds optional fields to a record arbitrary: each appears or is absent, never `undefined`. */
function withOptional(
  base: fc.Arbitrary<Item>,
  optional: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Item> {
  return fc
    .tuple(base, fc.record(optional, { requiredKeys: [], noNullPrototype: true }))
    .map(([item, extra]) => ({ ...item, ...extra }));
}

const text = withOptional(
  record({ type: fc.constant('text'), text: fc.oneof(textArbitrary(6), fc.constant('')) }),
  {
    cache_control: fc.constant({ type: 'ephemeral' }),
    id: fc.constantFrom('lc_1', 'lc_2'),
  },
);
const url = fc.constantFrom('https://example.com/cat.png', 'data:image/png;base64,AAAA');
const base64 = fc.constantFrom('AAAA', 'iVBORw0KGgo=');
const media = [
  record({
    type: fc.constant('image_url'),
    image_url: fc.oneof(url, record({ url, detail: fc.constant('low') })),
  }),
  withOptional(record({ type: fc.constant('image'), url }), { mimeType: fc.constant('image/png') }),
  withOptional(record({ type: fc.constant('image'), data: base64 }), { mimeType: fc.constant('image/png') }),
  record({
    type: fc.constant('image'),
    source: record({ type: fc.constant('base64'), media_type: fc.constant('image/jpeg'), data: base64 }),
  }),
  withOptional(
    record({ type: fc.constant('file'), data: base64, mimeType: fc.constant('application/pdf') }),
    {
      metadata: fc.constant({ filename: 'a.pdf' }),
    },
  ),
  record({ type: fc.constant('file'), url, mimeType: fc.constant('application/pdf') }),
  record({ type: fc.constant('text-plain'), text: textArbitrary(4), mimeType: fc.constant('text/markdown') }),
  record({ type: fc.constant('audio'), data: base64, mimeType: fc.constant('audio/wav') }),
];
/** A block no converter knows: it must survive as it is. */
const unknownBlock = record({ type: fc.constant('custom_block'), value: fc.nat(9) });
const reasoning = fc.oneof(
  withOptional(record({ type: fc.constant('thinking'), thinking: textArbitrary(6) }), {
    signature: fc.constantFrom('sig-1', 'EqQBCkYIBx'),
  }),
  record({ type: fc.constant('redacted_thinking'), data: fc.constant('opaque==') }),
  record({ type: fc.constant('reasoning'), reasoning: textArbitrary(6) }),
);

const kwargs = fc.oneof(
  fc.constant({}),
  fc.constant({ compaction: { pinned: true } }),
  fc.constant({ __openai_role__: 'developer' }),
  fc.constant({ compaction: 'the caller’s own value' }),
  record({ source: fc.constantFrom('import', 'cli') }),
);
const common = {
  id: fc.constantFrom('m1', 'msg_2', 'run-3'),
  name: fc.constantFrom('alice', 'model'),
  additional_kwargs: kwargs,
  response_metadata: fc.oneof(
    fc.constant({}),
    fc.constant({ model_name: 'm', finish_reason: 'stop' }),
    // LangChain v1 output: the content is standard blocks.
    fc.constant({ output_version: 'v1', model_provider: 'openai' }),
  ),
};

const content = (blocks: fc.Arbitrary<Item>) =>
  fc.oneof(fc.oneof(textArbitrary(10), fc.constant('')), fc.array(blocks, { maxLength: 4 }));

const human = withOptional(record({ content: content(fc.oneof(text, ...media, unknownBlock)) }), common).map(
  (fields) => new HumanMessage(fields as never) as BaseMessage,
);

const system = withOptional(record({ content: content(text) }), common).map(
  (fields) => new SystemMessage(fields as never) as BaseMessage,
);

interface CallSpec {
  name: string;
  args: Item;
  withType: boolean;
  inContent: 'no' | 'tool_use' | 'tool_call';
}
const callArbitrary: fc.Arbitrary<CallSpec> = record({
  name: fc.constantFrom('bash', 'read_file'),
  args: fc.oneof(fc.constant({}), record({ path: fc.constantFrom('a.ts', 'b.ts') })),
  withType: fc.boolean(),
  inContent: fc.constantFrom('no', 'tool_use', 'tool_call'),
});

const ai = fc
  .tuple(
    withOptional(record({ content: content(fc.oneof(text, reasoning, unknownBlock)) }), {
      ...common,
      usage_metadata: fc.constant({ input_tokens: 10, output_tokens: 2, total_tokens: 12 }),
      invalid_tool_calls: fc.constant([
        { type: 'invalid_tool_call', id: 'bad', name: 'x', args: '{', error: 'e' },
      ]),
    }),
    fc.uniqueArray(fc.constantFrom('call_1', 'call_2', 'toolu_3'), { maxLength: 3 }),
    fc.array(callArbitrary, { minLength: 3, maxLength: 3 }),
  )
  .map(([fields, ids, specs]) => {
    const calls = ids.map((id, index) => ({ id, ...specs[index]! }));
    const tool_calls = calls.map(({ id, name, args, withType }) => ({
      ...(withType ? { type: 'tool_call' } : {}),
      id,
      name,
      args,
    }));
    const blocks = calls.flatMap(({ id, name, args, inContent }): Item[] => {
      if (inContent === 'tool_use') return [{ type: 'tool_use', id, name, input: args }];
      if (inContent === 'tool_call') return [{ type: 'tool_call', id, name, args }];
      return [];
    });
    const withBlocks =
      blocks.length === 0
        ? fields.content
        : [
            ...(typeof fields.content === 'string'
              ? [{ type: 'text', text: fields.content }]
              : (fields.content as Item[])),
            ...blocks,
          ];
    return new AIMessage({ ...fields, content: withBlocks, tool_calls } as never) as BaseMessage;
  });

const tool = withOptional(
  record({
    content: content(fc.oneof(text, ...media.slice(0, 3), unknownBlock)),
    tool_call_id: fc.constantFrom('call_1', 'call_2', 'toolu_3'),
  }),
  {
    ...common,
    status: fc.constantFrom('success', 'error'),
    artifact: fc.constant({ rows: 3 }),
    metadata: fc.constant({ source: 'tool' }),
  },
).map((fields) => new ToolMessage(fields as never) as BaseMessage);

/** LangChain messages of every kind with every block kind, ids, names, kwargs, usage and tool-call forms. */
export function langChainMessagesArbitrary(): fc.Arbitrary<BaseMessage[]> {
  return fc.array(fc.oneof(human, system, ai, tool), { maxLength: 6 });
}

/** The fields a LangChain message carries, to compare messages built in different ways. */
export function fieldsOf(message: BaseMessage): Record<string, unknown> {
  const record = message as unknown as Record<string, unknown>;
  const fields: Record<string, unknown> = {
    type: message.getType(),
    content: message.content,
    id: message.id,
    name: message.name,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  };
  for (const key of [
    'tool_calls',
    'invalid_tool_calls',
    'usage_metadata',
    'tool_call_id',
    'status',
    'artifact',
    'metadata',
  ]) {
    if (record[key] !== undefined) fields[key] = record[key];
  }
  return fields;
}
