import fc from 'fast-check';
import type { OpenAIChatMessage } from '../openai-chat-request.js';
import { argumentsText, identifier, loose, shuffled, text } from './openai-arbitrary-helpers.js';

/**
 * Chat Completions message lists of every shape the SDK's `ChatCompletionMessageParam` allows: every role
 * (the deprecated `function` one included), string and part content, `null` and absent content, refusals,
 * audio, function and custom tool calls, the legacy `function_call`, unknown fields, and keys in any order.
 * Tool pairing is valid: each call is answered by the messages right after it (calls at the end may wait).
 */
export function openAIChatMessagesArbitrary(): fc.Arbitrary<OpenAIChatMessage[]> {
  return fc.array(messageSpec, { maxLength: 12 }).map(assemble);
}

const textPart = loose(fc.record({ type: fc.constant('text'), text }));
const userPart = fc.oneof(
  { weight: 3, arbitrary: textPart },
  loose(
    fc.record({
      type: fc.constant('image_url'),
      image_url: shuffled(
        fc.record(
          {
            url: fc.oneof(
              fc.webUrl(),
              fc.base64String({ maxLength: 8 }).map((data) => `data:image/png;base64,${data}`),
            ),
            detail: fc.constantFrom('auto', 'low', 'high'),
          },
          { requiredKeys: ['url'] },
        ),
      ),
    }),
  ),
  loose(
    fc.record({
      type: fc.constant('input_audio'),
      input_audio: shuffled(
        fc.record({ data: fc.base64String({ maxLength: 8 }), format: fc.constantFrom('wav', 'mp3') }),
      ),
    }),
  ),
  loose(
    fc.record({
      type: fc.constant('file'),
      file: shuffled(
        fc.record(
          {
            file_data: fc.base64String({ maxLength: 8 }).map((data) => `data:application/pdf;base64,${data}`),
            file_id: identifier,
            filename: text,
          },
          { requiredKeys: [] },
        ),
      ),
    }),
  ),
);
const assistantPart = fc.oneof(textPart, loose(fc.record({ type: fc.constant('refusal'), refusal: text })));
const content = <T>(part: fc.Arbitrary<T>) => fc.oneof(text, fc.array(part, { maxLength: 3 }));
const name = fc.record({ name: identifier }, { requiredKeys: [] });

type MessageSpec =
  | { kind: 'plain'; message: Record<string, unknown> }
  | {
      kind: 'assistant';
      message: Record<string, unknown>;
      calls: Array<Record<string, unknown>>;
      legacy?: string;
    };

const messageSpec: fc.Arbitrary<{
  spec: MessageSpec;
  results: Array<Record<string, unknown>>;
  order: number;
}> = fc.record({
  spec: fc.oneof(
    fc.tuple(fc.constantFrom('system', 'developer'), content(textPart), name).map(([role, value, extra]) => ({
      kind: 'plain' as const,
      message: { role, content: value, ...extra },
    })),
    {
      weight: 3,
      arbitrary: fc.tuple(content(userPart), name).map(([value, extra]) => ({
        kind: 'plain' as const,
        message: { role: 'user', content: value, ...extra },
      })),
    },
    {
      weight: 3,
      arbitrary: fc
        .record(
          {
            fields: fc.record(
              {
                content: fc.oneof(content(assistantPart), fc.constant(null)),
                refusal: fc.oneof(text, fc.constant(null)),
                name: identifier,
                audio: fc.oneof(fc.record({ id: identifier }), fc.constant(null)),
              },
              { requiredKeys: [] },
            ),
            calls: fc.array(
              fc.oneof(
                {
                  weight: 3,
                  arbitrary: fc.record({
                    type: fc.constant('function'),
                    name: identifier,
                    arguments: argumentsText,
                  }),
                },
                fc.record({ type: fc.constant('custom'), name: identifier, input: text }),
              ),
              { maxLength: 3 },
            ),
            emptyCalls: fc.boolean(),
            legacy: fc.option(argumentsText, { nil: undefined }),
          },
          { requiredKeys: ['fields', 'calls', 'emptyCalls'] },
        )
        .map(({ fields, calls, emptyCalls, legacy }) => ({
          kind: 'assistant' as const,
          message: {
            role: 'assistant',
            ...fields,
            ...(calls.length === 0 && emptyCalls ? { tool_calls: [] } : {}),
          },
          calls,
          ...(legacy === undefined ? {} : { legacy }),
        })),
    },
  ),
  results: fc.array(
    fc.record(
      { content: fc.oneof(text, fc.array(textPart, { maxLength: 2 }), fc.constant(null)) },
      { requiredKeys: [] },
    ),
    { minLength: 1, maxLength: 3 },
  ),
  order: fc.nat(),
});

/** Builds the messages: ids for the calls, their results right after, keys in the order each spec drew. */
function assemble(
  specs: ReadonlyArray<{ spec: MessageSpec; results: Array<Record<string, unknown>>; order: number }>,
): OpenAIChatMessage[] {
  const messages: Array<Record<string, unknown>> = [];
  let nextId = 1;
  specs.forEach(({ spec, results, order }, index) => {
    const isLast = index === specs.length - 1;
    if (spec.kind === 'plain') {
      messages.push(reorder(spec.message, order));
      return;
    }
    const calls = spec.calls.map((call) => {
      const id = `call_${nextId++}`;
      const { type, ...rest } = call;
      return reorder({ id, type, [type as string]: reorder(rest, order) }, order >> 2);
    });
    const legacy =
      spec.legacy === undefined
        ? {}
        : { function_call: reorder({ name: 'legacy', arguments: spec.legacy }, order) };
    messages.push(
      reorder({ ...spec.message, ...(calls.length > 0 ? { tool_calls: calls } : {}), ...legacy }, order),
    );
    if (isLast) return;
    calls.forEach((call, position) => {
      const result = results[position % results.length]!;
      const contentValue = result.content === null ? 'null result' : result.content;
      messages.push(
        reorder(
          {
            role: 'tool',
            tool_call_id: call.id,
            ...(result.content === undefined ? {} : { content: contentValue }),
          },
          order + position,
        ),
      );
    });
    if (spec.legacy !== undefined) {
      const value = results[0]!.content;
      messages.push(
        reorder(
          {
            role: 'function',
            name: 'legacy',
            ...(value === undefined
              ? {}
              : { content: typeof value === 'string' || value === null ? value : 'text' }),
          },
          order,
        ),
      );
    }
  });
  // Assembled from the SDK's shapes field by field.
  return messages as OpenAIChatMessage[];
}

/** The record with its keys rotated by `shift`: a deterministic shuffle that shrinks well. */
function reorder<T extends Record<string, unknown>>(record: T, shift: number): T {
  const entries = Object.entries(record);
  if (entries.length === 0) return record;
  const start = shift % entries.length;
  return Object.fromEntries([...entries.slice(start), ...entries.slice(0, start)]) as T;
}
