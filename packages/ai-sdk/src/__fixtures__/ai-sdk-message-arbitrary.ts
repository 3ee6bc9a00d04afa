import type { JSONValue } from '@compaction/core';
import { textArbitrary } from '@compaction/testing';
import fc from 'fast-check';

/** Which AI SDK shape to generate: model messages or provider-level prompt messages. */
export type GeneratedFlavor = 'model' | 'prompt';

type Item = Record<string, unknown>;

/** JSON without `-0` (which JSON text cannot carry). */
const jsonArbitrary: fc.Arbitrary<JSONValue> = fc
  .jsonValue({ maxDepth: 2 })
  .map((value) => JSON.parse(JSON.stringify(value)) as JSONValue);

const jsonObjectArbitrary = fc.dictionary(
  fc.constantFrom('a', 'b', 'cacheControl', 'itemId'),
  jsonArbitrary,
  {
    maxKeys: 2,
    noNullPrototype: true,
  },
);

/** Provider options, sometimes with a `compaction` key that was not written by the converters. */
const providerOptionsArbitrary: fc.Arbitrary<Item> = fc.dictionary(
  fc.constantFrom('anthropic', 'openai', 'google', 'compaction'),
  fc.oneof(
    jsonObjectArbitrary,
    fc.constant({ metadata: {} }),
    fc.constant({ id: 'x' }),
    fc.constant({ metadata: { aiSdk: 1 } }),
  ),
  { maxKeys: 2, noNullPrototype: true },
);

/** Adds optional fields to a record arbitrary: each appears or is absent, never `undefined`. */
function withOptional(
  base: fc.Arbitrary<Item>,
  optional: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Item> {
  return fc
    .tuple(base, fc.record(optional, { requiredKeys: [] }))
    .map(([item, extra]) => ({ ...item, ...extra }));
}

const withOptions = (base: fc.Arbitrary<Item>, extra: Record<string, fc.Arbitrary<unknown>> = {}) =>
  withOptional(base, { providerOptions: providerOptionsArbitrary, ...extra });

const base64Arbitrary = fc.uint8Array({ maxLength: 12 }).map((bytes) => btoa(String.fromCharCode(...bytes)));
const nonEmptyBase64Arbitrary = base64Arbitrary.filter((data) => data !== '');
const urlStringArbitrary = fc.constantFrom(
  'https://example.com/cat.png',
  'https://example.com/a%20b?x=1',
  'data:image/png;base64,AAAA',
);

/** Data of an image or file part (never empty: an empty image is invalid input, tested apart). */
function dataArbitrary(flavor: GeneratedFlavor): fc.Arbitrary<unknown> {
  const bytes = fc.uint8Array({ minLength: 1, maxLength: 12 });
  const common = [
    nonEmptyBase64Arbitrary,
    urlStringArbitrary,
    bytes,
    urlStringArbitrary.map((url) => new URL(url)),
  ];
  if (flavor === 'prompt') return fc.oneof(...common);
  return fc.oneof(
    ...common,
    bytes.map((data) => data.slice().buffer as ArrayBuffer),
    bytes.map((data) => Buffer.from(data)),
  );
}

const mediaTypeArbitrary = fc.constantFrom('image/png', 'application/pdf', 'text/plain');
const idArbitrary = fc.constantFrom('call_1', 'call_2', 'toolu_01', 'approval-1');
const toolNameArbitrary = fc.constantFrom('bash', 'read_file', 'web_search');

const textPart = withOptions(fc.record({ type: fc.constant('text'), text: textArbitrary(8) }));

function filePart(flavor: GeneratedFlavor) {
  return withOptions(
    fc.record({ type: fc.constant('file'), data: dataArbitrary(flavor), mediaType: mediaTypeArbitrary }),
    {
      filename: fc.constantFrom('a.pdf', 'notes.txt'),
      ...(flavor === 'prompt' ? { originalUrl: urlStringArbitrary } : {}),
    },
  );
}

const imagePart = withOptions(fc.record({ type: fc.constant('image'), image: dataArbitrary('model') }), {
  mediaType: fc.constantFrom('image/png', 'image/jpeg'),
});

const reasoningPart = withOptions(fc.record({ type: fc.constant('reasoning'), text: textArbitrary(8) }));

const toolCallPart = (providerExecuted: fc.Arbitrary<boolean>) =>
  withOptions(
    fc.record({
      type: fc.constant('tool-call'),
      toolCallId: idArbitrary,
      toolName: toolNameArbitrary,
      input: jsonArbitrary,
    }),
    { providerExecuted },
  );

const contentItemArbitrary: fc.Arbitrary<Item> = fc.oneof(
  withOptions(fc.record({ type: fc.constant('text'), text: textArbitrary(6) })),
  withOptions(
    fc.record({
      type: fc.constant('image-data'),
      data: nonEmptyBase64Arbitrary,
      mediaType: mediaTypeArbitrary,
    }),
  ),
  withOptions(fc.record({ type: fc.constant('image-url'), url: urlStringArbitrary })),
  withOptions(
    fc.record({ type: fc.constant('file-data'), data: base64Arbitrary, mediaType: mediaTypeArbitrary }),
    {
      filename: fc.constant('report.pdf'),
    },
  ),
  withOptions(fc.record({ type: fc.constant('file-url'), url: urlStringArbitrary }), {
    mediaType: mediaTypeArbitrary,
  }),
  withOptions(
    fc.record({
      type: fc.constant('file-id'),
      fileId: fc.oneof(fc.constant('file-123'), fc.constant({ openai: 'file-1' })),
    }),
  ),
  withOptions(fc.record({ type: fc.constant('image-file-id'), fileId: fc.constant('file-456') })),
  withOptions(fc.record({ type: fc.constant('custom') })),
);

const outputArbitrary: fc.Arbitrary<Item> = fc.oneof(
  withOptions(fc.record({ type: fc.constant('text'), value: textArbitrary(20) })),
  withOptions(fc.record({ type: fc.constant('error-text'), value: textArbitrary(10) })),
  withOptions(fc.record({ type: fc.constant('json'), value: jsonArbitrary })),
  withOptions(fc.record({ type: fc.constant('error-json'), value: jsonArbitrary })),
  withOptions(fc.record({ type: fc.constant('execution-denied') }), { reason: textArbitrary(5) }),
  withOptions(
    fc.record({ type: fc.constant('content'), value: fc.array(contentItemArbitrary, { maxLength: 3 }) }),
  ),
);

const toolResultPart = withOptions(
  fc.record({
    type: fc.constant('tool-result'),
    toolCallId: idArbitrary,
    toolName: toolNameArbitrary,
    output: outputArbitrary,
  }),
);

const approvalRequestPart = withOptional(
  fc.record({ type: fc.constant('tool-approval-request'), approvalId: idArbitrary, toolCallId: idArbitrary }),
  { signature: fc.constant('hmac'), inputSchemaInput: jsonArbitrary },
);

function approvalResponsePart(flavor: GeneratedFlavor) {
  return withOptional(
    fc.record({
      type: fc.constant('tool-approval-response'),
      approvalId: idArbitrary,
      approved: fc.boolean(),
    }),
    flavor === 'model'
      ? { reason: textArbitrary(4), providerExecuted: fc.boolean() }
      : { reason: textArbitrary(4), providerOptions: providerOptionsArbitrary },
  );
}

/**
 * AI SDK messages of every kind the converters must carry losslessly: all part kinds, every tool output kind
 * and content item, bytes, buffers and URLs, provider options at every level (some with a `compaction` key
 * written by hand), tool approvals and provider-executed tools. `model` generates `ModelMessage`s (string
 * content included), `prompt` provider-level prompt messages.
 */
export function aiSdkMessageArbitrary(flavor: GeneratedFlavor): fc.Arbitrary<Item> {
  const stringOr = (parts: fc.Arbitrary<Item[]>) =>
    flavor === 'model' ? fc.oneof(textArbitrary(10) as fc.Arbitrary<unknown>, parts) : parts;
  const userParts =
    flavor === 'model'
      ? fc.oneof(textPart, imagePart, filePart(flavor))
      : fc.oneof(textPart, filePart(flavor));
  const assistantParts = fc.oneof(
    textPart,
    filePart(flavor),
    reasoningPart,
    toolCallPart(fc.boolean()),
    toolResultPart,
    ...(flavor === 'model' ? [approvalRequestPart] : []),
  );
  return fc.oneof(
    withOptions(fc.record({ role: fc.constant('system'), content: textArbitrary(10) })),
    withOptions(
      fc.record({ role: fc.constant('user'), content: stringOr(fc.array(userParts, { maxLength: 3 })) }),
    ),
    withOptions(
      fc.record({
        role: fc.constant('assistant'),
        content: stringOr(fc.array(assistantParts, { maxLength: 4 })),
      }),
    ),
    withOptions(
      fc.record({
        role: fc.constant('tool'),
        content: fc.array(fc.oneof(toolResultPart, approvalResponsePart(flavor)), { maxLength: 3 }),
      }),
    ),
  );
}
