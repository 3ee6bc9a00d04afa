import type { Message, Metadata } from '@compaction/core';
import { textArbitrary } from '@compaction/testing';
import fc from 'fast-check';

type Item = Record<string, unknown>;

const metadataArbitrary: fc.Arbitrary<Metadata> = fc.oneof(
  fc.constant({ compaction: { pinned: true } }),
  fc.constant({ compaction: { kind: 'summary', round: 2, strategy: 'summarization' } }),
  fc.constant({}),
  fc.record({ source: fc.constantFrom('import', 'cli'), count: fc.nat(5) }),
  // A key of the same name that is not the converters' record must survive too.
  fc.constant({ aiSdk: 'user value' }),
);

function withOptional(
  base: fc.Arbitrary<Item>,
  optional: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Item> {
  return fc
    .tuple(base, fc.record(optional, { requiredKeys: [] }))
    .map(([item, extra]) => ({ ...item, ...extra }));
}
const withMetadata = (base: fc.Arbitrary<Item>, extra: Record<string, fc.Arbitrary<unknown>> = {}) =>
  withOptional(base, { metadata: metadataArbitrary, ...extra });

const base64 = fc.constantFrom('AAAA', 'iVBORw0KGgo=', '');
const url = fc.constantFrom('https://example.com/a.png', 'data:image/png;base64,AAAA');
const text = withMetadata(fc.record({ type: fc.constant('text'), text: textArbitrary(6) }));
const image = withMetadata(
  fc.record({
    type: fc.constant('image'),
    image: fc.oneof(
      base64.filter((data) => data !== ''),
      url,
    ),
  }),
  {
    mediaType: fc.constantFrom('image/png', 'image/jpeg'),
  },
);
const file = withMetadata(
  fc.record({
    type: fc.constant('file'),
    data: fc.oneof(base64, url),
    mediaType: fc.constantFrom('application/pdf', 'text/plain'),
  }),
  { filename: fc.constant('a.pdf') },
);
const reasoning = withMetadata(fc.record({ type: fc.constant('reasoning'), text: textArbitrary(6) }), {
  signature: fc.constant('sig'),
  redactedData: fc.constant('opaque=='),
});
const toolCall = withMetadata(
  fc.record({
    type: fc.constant('tool-call'),
    toolCallId: fc.constantFrom('call_1', 'call_2'),
    toolName: fc.constantFrom('bash', 'read_file'),
    input: fc.oneof(fc.constant({}), fc.record({ path: fc.constant('a.ts') }), fc.constant('raw')),
  }),
);
const toolResult = withMetadata(
  fc.record({
    type: fc.constant('tool-result'),
    toolCallId: fc.constantFrom('call_1', 'call_2'),
    toolName: fc.constantFrom('bash', 'read_file'),
    output: fc.oneof(textArbitrary(10), fc.array(fc.oneof(text, image, file), { maxLength: 3 })),
  }),
  { isError: fc.boolean() },
);

const message = (role: string, parts: fc.Arbitrary<Item>, minLength = 0) =>
  withOptional(
    fc.record({ role: fc.constant(role), content: fc.array(parts, { minLength, maxLength: 3 }) }),
    {
      id: fc.constantFrom('m1', 'msg_2'),
      metadata: metadataArbitrary,
    },
  );

/** Core messages of every role with every part kind, ids and metadata at message and part level. */
export function coreMessagesArbitrary(): fc.Arbitrary<Message[]> {
  return fc.array(
    fc.oneof(
      message('system', text),
      message('user', fc.oneof(text, image, file)),
      message('assistant', fc.oneof(text, reasoning, toolCall, file)),
      message('tool', toolResult),
    ),
    { maxLength: 6 },
  ) as unknown as fc.Arbitrary<Message[]>;
}
