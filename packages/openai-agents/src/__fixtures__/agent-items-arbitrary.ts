import type { AgentInputItem } from '@openai/agents';
import fc from 'fast-check';

const text = fc.string({ minLength: 1, maxLength: 40 });
const providerData = fc.option(fc.dictionary(fc.constantFrom('a', 'b', 'cache'), fc.string()), {
  nil: undefined,
});

/** Drops the keys whose value is undefined, as items read from JSON have none. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

const userMessage = fc
  .record({
    content: fc.oneof(
      text,
      fc.array(
        fc.oneof(
          fc.record({ type: fc.constant('input_text' as const), text }),
          fc.record({
            type: fc.constant('input_image' as const),
            image: fc.constantFrom('https://example.com/a.png', 'data:image/png;base64,AAAA'),
          }),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    ),
    type: fc.option(fc.constant('message' as const), { nil: undefined }),
    providerData,
  })
  .map((fields) => defined({ role: 'user' as const, ...fields }) as AgentInputItem);

const assistantMessage = fc
  .record({
    id: fc.option(
      fc.string({ minLength: 1, maxLength: 8 }).map((id) => `msg_${id}`),
      { nil: undefined },
    ),
    content: fc.array(fc.record({ type: fc.constant('output_text' as const), text }), {
      minLength: 1,
      maxLength: 2,
    }),
    providerData,
  })
  .map(
    (fields) =>
      defined({
        type: 'message' as const,
        role: 'assistant' as const,
        status: 'completed' as const,
        ...fields,
      }) as AgentInputItem,
  );

const reasoning = fc
  .record({
    id: fc.option(
      fc.string({ minLength: 1, maxLength: 8 }).map((id) => `rs_${id}`),
      { nil: undefined },
    ),
    content: fc.array(fc.record({ type: fc.constant('input_text' as const), text }), { maxLength: 2 }),
    providerData,
  })
  .map((fields) => defined({ type: 'reasoning' as const, ...fields }) as AgentInputItem);

const output = fc.oneof(
  text,
  text.map((value) => ({ type: 'text' as const, text: value })),
  fc.constant([{ type: 'input_image' as const, image: 'https://example.com/chart.png' }]),
  fc.constant({ type: 'image' as const, image: 'https://example.com/chart.png' }),
  fc.constant([
    { type: 'input_text' as const, text: 'two files' },
    { type: 'input_file' as const, file: { url: 'https://example.com/a.pdf' }, filename: 'a.pdf' },
  ]),
);

/** Items of the SDK that have no core part: hosted tools, the computer, the shell, server compaction. */
const otherItems = (step: number) =>
  fc.constantFrom<AgentInputItem[]>(
    [
      {
        type: 'hosted_tool_call',
        id: `ws_${step}`,
        name: 'web_search_call',
        status: 'completed',
        output: 'found',
      },
    ],
    [
      {
        type: 'computer_call',
        callId: `computer_${step}`,
        status: 'completed',
        action: { type: 'screenshot' },
      },
      {
        type: 'computer_call_result',
        callId: `computer_${step}`,
        output: { type: 'computer_screenshot', data: 'data:image/png;base64,AAAA' },
      },
    ],
    [{ type: 'compaction', encrypted_content: `opaque-${step}` }],
  );

/** One model step that calls tools, and the results: call ids are unique within the conversation. */
const toolStep = (step: number) =>
  fc
    .array(
      fc.record({
        name: fc.constantFrom('read_file', 'run_tests', 'search'),
        arguments: fc
          .dictionary(fc.constantFrom('path', 'pattern'), fc.string())
          .map((input) => JSON.stringify(input)),
        output,
        id: fc.option(fc.constant(`fc_${step}`), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 3 },
    )
    .map((calls) => [
      ...calls.map((call, index) =>
        defined({
          type: 'function_call' as const,
          id: call.id === undefined ? undefined : `${call.id}_${index}`,
          callId: `call_${step}_${index}`,
          name: call.name,
          arguments: call.arguments,
          status: 'completed' as const,
        }),
      ),
      ...calls.map((call, index) => ({
        type: 'function_call_result' as const,
        name: call.name,
        callId: `call_${step}_${index}`,
        status: 'completed' as const,
        output: call.output,
      })),
    ]);

/**
 * Conversations as the Agents SDK stores them: an optional system message, then turns of a user message and
 * model steps (reasoning, tool calls and their results, assistant messages).
 */
export const agentItemsArbitrary: fc.Arbitrary<AgentInputItem[]> = fc
  .record({
    system: fc.option(
      text.map((content) => ({ role: 'system' as const, content })),
      { nil: undefined },
    ),
    turns: fc.array(
      fc.record({
        user: userMessage,
        steps: fc.array(
          fc.tuple(fc.option(reasoning, { nil: undefined }), fc.constantFrom('tools', 'answer', 'other')),
          { maxLength: 3 },
        ),
        answer: fc.option(assistantMessage, { nil: undefined }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .chain(({ system, turns }) => {
    let step = 0;
    const parts = turns.flatMap((turn) => [
      fc.constant([turn.user]),
      ...turn.steps.map(([thinking, kind]) => {
        const current = step++;
        const head = thinking === undefined ? [] : [thinking];
        const body =
          kind === 'tools'
            ? toolStep(current)
            : kind === 'other'
              ? otherItems(current)
              : assistantMessage.map((message) => [message]);
        return body.map((items) => [...head, ...items] as AgentInputItem[]);
      }),
      fc.constant(turn.answer === undefined ? [] : [turn.answer]),
    ]);
    return fc
      .tuple(...parts)
      .map((groups) => [...(system === undefined ? [] : [system]), ...groups.flat()] as AgentInputItem[]);
  });
