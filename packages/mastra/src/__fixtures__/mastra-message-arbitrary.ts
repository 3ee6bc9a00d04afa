import type { JSONValue } from '@compaction/core';
import fc from 'fast-check';
import type { MastraMessage, MastraPart } from '../mastra-types.js';

type Item = Record<string, unknown>;

/** JSON without `-0` (which JSON text cannot carry). */
const jsonArbitrary: fc.Arbitrary<JSONValue> = fc
  .jsonValue({ maxDepth: 2 })
  .map((value) => JSON.parse(JSON.stringify(value)) as JSONValue);

const jsonObjectArbitrary = fc.dictionary(fc.constantFrom('a', 'b', 'note'), jsonArbitrary, {
  maxKeys: 2,
  noNullPrototype: true,
});

const providerMetadataArbitrary = fc.dictionary(fc.constantFrom('anthropic', 'openai'), jsonObjectArbitrary, {
  minKeys: 1,
  maxKeys: 2,
  noNullPrototype: true,
});

const textArbitrary = fc.string({ maxLength: 20 });

/** Adds optional fields to a record arbitrary: each appears or is absent, never `undefined`. */
function withOptional(
  base: fc.Arbitrary<Item>,
  optional: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Item> {
  return fc
    .tuple(base, fc.record(optional, { requiredKeys: [] }))
    .map(([item, extra]) => ({ ...item, ...extra }));
}

const withProviderMetadata = (base: fc.Arbitrary<Item>) =>
  withOptional(base, { providerMetadata: providerMetadataArbitrary });

const textPart = withProviderMetadata(fc.record({ type: fc.constant('text'), text: textArbitrary }));
const filePart = withProviderMetadata(
  fc.record({
    type: fc.constant('file'),
    mimeType: fc.constantFrom('image/png', 'application/pdf', 'text/plain'),
    data: fc.oneof(
      fc.base64String({ minLength: 4, maxLength: 12 }),
      fc.constant('https://example.com/a.png'),
    ),
  }),
);
const reasoningPart = withProviderMetadata(
  fc.record({
    type: fc.constant('reasoning'),
    reasoning: textArbitrary,
    details: fc.array(
      fc.oneof(
        withOptional(fc.record({ type: fc.constant('text'), text: textArbitrary }), {
          signature: textArbitrary,
        }),
        fc.record({ type: fc.constant('redacted'), data: textArbitrary }),
      ),
      { maxLength: 2 },
    ),
  }),
);
const callIdArbitrary = fc.stringMatching(/^call_[a-z0-9]{1,8}$/);
const invocationPart = withProviderMetadata(
  fc.record({
    type: fc.constant('tool-invocation'),
    toolInvocation: fc.oneof(
      withOptional(
        fc.record({
          state: fc.constant('result'),
          toolCallId: callIdArbitrary,
          toolName: fc.constantFrom('read_file', 'run_tests'),
          args: jsonObjectArbitrary,
          result: fc.oneof(textArbitrary, jsonArbitrary),
        }),
        { step: fc.nat(5) },
      ),
      fc.record({
        state: fc.constantFrom('call', 'partial-call'),
        toolCallId: callIdArbitrary,
        toolName: fc.constant('read_file'),
        args: jsonObjectArbitrary,
      }),
    ),
  }),
);
const detachedPart = fc.oneof(
  fc.constant({ type: 'step-start' }),
  fc.record({
    type: fc.constant('source'),
    source: fc.record({ sourceType: fc.constant('url'), id: fc.string({ maxLength: 4 }), url: fc.webUrl() }),
  }),
);

/** Whether a part gives the model something: a message made only of other parts has no core counterpart. */
function isContent(part: Item): boolean {
  if (part.type === 'tool-invocation') return (part.toolInvocation as Item).state === 'result';
  return ['text', 'file', 'reasoning'].includes(part.type as string);
}

const partsArbitrary = (parts: fc.Arbitrary<Item>) =>
  fc.array(parts, { minLength: 1, maxLength: 6 }).filter((items) => items.some(isContent));

const envelopeArbitrary = fc.record(
  {
    id: fc.uuid(),
    createdAt: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
    threadId: fc.constant('thread-1'),
    resourceId: fc.constant('user-1'),
    type: fc.constantFrom('text', 'tool-call'),
  },
  { requiredKeys: ['id', 'createdAt'] },
);

const contentExtras = {
  content: textArbitrary,
  toolInvocations: fc.array(jsonObjectArbitrary, { maxLength: 1 }),
  // Sometimes with the marks toMastra keeps there for a summary or a removal note.
  metadata: fc.oneof(
    jsonObjectArbitrary,
    fc.constant({ compaction: { kind: 'summary', round: 1 } }),
    fc.constant({ compaction: { kind: 'marker', removedMessages: 2 }, note: 'x' }),
  ),
  providerMetadata: providerMetadataArbitrary,
  annotations: fc.array(jsonArbitrary, { maxLength: 1 }),
};

const messageArbitrary = (role: 'user' | 'assistant' | 'system', parts: fc.Arbitrary<Item>) =>
  fc
    .tuple(envelopeArbitrary, withOptional(fc.record({ parts: partsArbitrary(parts) }), contentExtras))
    .map(
      ([envelope, content]) =>
        ({ ...envelope, role, content: { format: 2, ...content } }) as unknown as MastraMessage,
    );

/** Mastra messages (format 2) of every role, with the parts and fields Mastra gives input processors. */
export const mastraMessagesArbitrary: fc.Arbitrary<MastraMessage[]> = fc
  .uniqueArray(
    fc.oneof(
      messageArbitrary('user', fc.oneof(textPart, filePart, detachedPart)),
      messageArbitrary(
        'assistant',
        fc.oneof(textPart, reasoningPart, invocationPart, filePart, detachedPart),
      ),
      messageArbitrary('system', textPart),
    ),
    // Ids are unique in a Mastra message list (one replaces another of the same id).
    { maxLength: 6, selector: (message) => message.id },
  )
  // Mastra keeps its messages in order of date.
  .map((messages) =>
    messages.toSorted((first, second) => first.createdAt.getTime() - second.createdAt.getTime()),
  );

export type { MastraPart };
