import fc from 'fast-check';
import type { OpenAIResponsesItem } from '../openai-responses-request.js';
import { argumentsText, identifier, json, loose, shuffled, text } from './openai-arbitrary-helpers.js';

/**
 * Responses `input` lists of every shape the SDK's `ResponseInputItem` allows: easy and typed messages of
 * every role with every content part, output messages, reasoning, function calls and every other tool call
 * the client answers (custom tool, computer, local shell, shell, apply_patch, tool search, MCP approval)
 * with their answers, server-side items (web and file search, code interpreter, image generation, MCP
 * calls and tool lists, compaction, item references, programs), unknown items and fields, and keys in any
 * order. Every call is answered right after the run that made it (the last run's calls may wait); tools
 * called from a program, and MCP calls made under an approval, refer to items of earlier runs; the input may
 * open with answers whose calls came in an earlier response.
 */
export function openAIResponsesInputArbitrary(): fc.Arbitrary<OpenAIResponsesItem[]> {
  return fc
    .tuple(fc.array(orphanAnswer, { maxLength: 1 }), fc.array(segment, { maxLength: 8 }))
    .map(([orphans, segments]) => [...orphans, ...assemble(segments)]);
}

const status = fc.constantFrom('in_progress', 'completed', 'incomplete');
const inputPart = fc.oneof(
  { weight: 3, arbitrary: loose(fc.record({ type: fc.constant('input_text'), text })) },
  loose(
    fc.record(
      {
        type: fc.constant('input_image'),
        detail: fc.constantFrom('auto', 'low', 'high'),
        image_url: fc.oneof(
          fc.webUrl(),
          fc.base64String({ maxLength: 8 }).map((data) => `data:image/png;base64,${data}`),
        ),
        file_id: identifier,
      },
      { requiredKeys: ['type', 'detail'] },
    ),
  ),
  loose(
    fc.record(
      {
        type: fc.constant('input_file'),
        file_data: fc.base64String({ maxLength: 8 }).map((data) => `data:application/pdf;base64,${data}`),
        file_id: identifier,
        file_url: fc.webUrl(),
        filename: text,
      },
      { requiredKeys: ['type'] },
    ),
  ),
);
const outputPart = fc.oneof(
  loose(
    fc.record(
      { type: fc.constant('output_text'), text, annotations: fc.constant([]), logprobs: fc.constant([]) },
      { requiredKeys: ['type', 'text', 'annotations'] },
    ),
  ),
  loose(fc.record({ type: fc.constant('refusal'), refusal: text })),
);

const inputMessage = fc.oneof(
  loose(
    fc.record(
      {
        role: fc.constantFrom('user', 'system', 'developer'),
        content: fc.oneof(text, fc.array(inputPart, { maxLength: 3 })),
        type: fc.constant('message'),
        phase: fc.constantFrom('commentary', 'final_answer'),
      },
      { requiredKeys: ['role', 'content'] },
    ),
  ),
  loose(
    fc.record(
      {
        role: fc.constantFrom('user', 'system', 'developer'),
        content: fc.array(inputPart, { maxLength: 3 }),
        status,
        type: fc.constant('message'),
      },
      { requiredKeys: ['role', 'content'] },
    ),
  ),
);
const assistantMessage = fc.oneof(
  loose(fc.record({ role: fc.constant('assistant'), content: text }, { requiredKeys: ['role', 'content'] })),
  loose(
    fc.record(
      {
        id: identifier.map((id) => `msg_${id}`),
        content: fc.array(outputPart, { maxLength: 2 }),
        role: fc.constant('assistant'),
        status,
        type: fc.constant('message'),
        phase: fc.constantFrom('commentary', 'final_answer'),
      },
      { requiredKeys: ['id', 'content', 'role', 'status', 'type'] },
    ),
  ),
);
const reasoning = loose(
  fc.record(
    {
      id: identifier.map((id) => `rs_${id}`),
      summary: fc.array(shuffled(fc.record({ type: fc.constant('summary_text'), text })), { maxLength: 2 }),
      type: fc.constant('reasoning'),
      content: fc.array(shuffled(fc.record({ type: fc.constant('reasoning_text'), text })), { maxLength: 1 }),
      encrypted_content: fc.oneof(fc.base64String({ maxLength: 12 }), fc.constant(null)),
      status,
    },
    { requiredKeys: ['id', 'summary', 'type'] },
  ),
);
const serverItem = fc.oneof(
  loose(
    fc.record({
      id: identifier,
      action: shuffled(fc.record({ type: fc.constant('search'), query: text })),
      status: fc.constant('completed'),
      type: fc.constant('web_search_call'),
    }),
  ),
  loose(
    fc.record({
      id: identifier,
      queries: fc.array(text, { maxLength: 2 }),
      status: fc.constant('completed'),
      type: fc.constant('file_search_call'),
    }),
  ),
  loose(
    fc.record({
      id: identifier,
      code: text,
      container_id: identifier,
      outputs: fc.constant(null),
      status: fc.constant('completed'),
      type: fc.constant('code_interpreter_call'),
    }),
  ),
  loose(
    fc.record({
      id: identifier,
      result: fc.oneof(fc.base64String({ maxLength: 8 }), fc.constant(null)),
      status: fc.constant('completed'),
      type: fc.constant('image_generation_call'),
    }),
  ),
  loose(
    fc.record({
      id: identifier,
      server_label: identifier,
      tools: fc.constant([]),
      type: fc.constant('mcp_list_tools'),
    }),
  ),
  loose(
    fc.record({ encrypted_content: fc.base64String({ maxLength: 12 }), type: fc.constant('compaction') }),
  ),
  loose(fc.record({ id: identifier, type: fc.constant('item_reference') })),
  loose(fc.record({ type: fc.constant('future_item'), payload: json })),
);

type Element =
  | { kind: 'item'; item: Record<string, unknown> }
  | {
      kind: 'call';
      type: string;
      fields: Record<string, unknown>;
      answer: Record<string, unknown>;
      programmatic: boolean;
    }
  | { kind: 'program' }
  | { kind: 'program_output'; result: string }
  | { kind: 'mcp_call' };

/** A client call of each kind, without its id, and fields for its answer. */
const call: fc.Arbitrary<Element> = fc
  .record({
    spec: fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record({
          type: fc.constant('function_call'),
          fields: fc.record(
            { name: identifier, arguments: argumentsText, status },
            { requiredKeys: ['name', 'arguments'] },
          ),
        }),
      },
      fc.record({
        type: fc.constant('custom_tool_call'),
        fields: fc.record(
          { name: identifier, input: text, namespace: identifier },
          { requiredKeys: ['name', 'input'] },
        ),
      }),
      fc.record({
        type: fc.constant('computer_call'),
        fields: fc.record({
          id: identifier,
          pending_safety_checks: fc.constant([]),
          status,
          action: shuffled(
            fc.record({
              type: fc.constant('click'),
              button: fc.constant('left'),
              x: fc.nat(99),
              y: fc.nat(99),
            }),
          ),
        }),
      }),
      fc.record({
        type: fc.constant('local_shell_call'),
        fields: fc.record({
          id: identifier,
          status,
          action: shuffled(
            fc.record({
              command: fc.array(text, { maxLength: 2 }),
              env: fc.constant({}),
              type: fc.constant('exec'),
            }),
          ),
        }),
      }),
      fc.record({
        type: fc.constant('shell_call'),
        fields: fc.record(
          {
            action: shuffled(
              fc.record(
                { commands: fc.array(text, { maxLength: 2 }), timeout_ms: fc.nat(9) },
                { requiredKeys: ['commands'] },
              ),
            ),
            status,
          },
          { requiredKeys: ['action'] },
        ),
      }),
      fc.record({
        type: fc.constant('apply_patch_call'),
        fields: fc.record({
          operation: shuffled(fc.record({ diff: text, path: text, type: fc.constant('update_file') })),
          status: fc.constant('completed'),
        }),
      }),
      fc.record({
        type: fc.constant('tool_search_call'),
        fields: fc.record(
          { arguments: json, execution: fc.constant('client'), status },
          { requiredKeys: ['arguments'] },
        ),
      }),
      fc.record({
        type: fc.constant('mcp_approval_request'),
        fields: fc.record({ arguments: argumentsText, name: identifier, server_label: identifier }),
      }),
    ),
    answer: fc.record(
      {
        output: fc.oneof(text, fc.array(inputPart, { maxLength: 2 })),
        text,
        isError: fc.boolean(),
        status,
        reason: fc.oneof(text, fc.constant(null)),
      },
      { requiredKeys: ['output', 'text', 'isError'] },
    ),
    programmatic: fc.boolean(),
  })
  .map(({ spec, answer, programmatic }) => ({ kind: 'call' as const, ...spec, answer, programmatic }));

const element: fc.Arbitrary<Element> = fc.oneof(
  { weight: 3, arbitrary: assistantMessage.map((item) => ({ kind: 'item' as const, item })) },
  { weight: 2, arbitrary: reasoning.map((item) => ({ kind: 'item' as const, item })) },
  { weight: 4, arbitrary: call },
  serverItem.map((item) => ({ kind: 'item' as const, item })),
  fc.constant({ kind: 'program' as const }),
  text.map((result) => ({ kind: 'program_output' as const, result })),
  fc.constant({ kind: 'mcp_call' as const }),
);

const segment = fc.oneof(
  inputMessage.map((item) => ({ kind: 'message' as const, item })),
  fc.array(element, { minLength: 1, maxLength: 5 }).map((elements) => ({ kind: 'run' as const, elements })),
);

/** An answer whose call came in an earlier response. */
const orphanAnswer = loose(
  fc.record({
    type: fc.constant('function_call_output'),
    call_id: fc.constant('call_earlier'),
    output: text,
  }),
);

/** Builds the items: ids for the calls, their answers after each run, references to earlier programs and approvals. */
function assemble(
  segments: ReadonlyArray<
    { kind: 'message'; item: Record<string, unknown> } | { kind: 'run'; elements: Element[] }
  >,
): OpenAIResponsesItem[] {
  const items: Array<Record<string, unknown>> = [];
  let nextId = 1;
  const programs: string[] = [];
  const approvals: string[] = [];
  segments.forEach((segment, index) => {
    if (segment.kind === 'message') {
      items.push(segment.item);
      return;
    }
    const answers: Array<Record<string, unknown>> = [];
    for (const element of segment.elements) {
      const id = `call_${nextId++}`;
      switch (element.kind) {
        case 'item':
          items.push(element.item);
          break;
        case 'program':
          programs.push(id);
          items.push({ id: `prog_${id}`, call_id: id, code: 'print(1)', fingerprint: 'f', type: 'program' });
          break;
        case 'program_output':
          items.push({
            id: `po_${id}`,
            call_id: programs.at(-1) ?? 'call_0',
            result: element.result,
            status: 'completed',
            type: 'program_output',
          });
          break;
        case 'mcp_call':
          items.push({
            id: `mcp_${id}`,
            arguments: '{}',
            name: 'a',
            server_label: 'b',
            type: 'mcp_call',
            approval_request_id: approvals.at(-1) ?? null,
          });
          break;
        case 'call': {
          const caller =
            element.programmatic && programs.length > 0
              ? { caller: { caller_id: programs.at(-1)!, type: 'program' } }
              : {};
          const idField = element.type === 'mcp_approval_request' ? { id } : { call_id: id };
          if (element.type === 'mcp_approval_request') approvals.push(id);
          items.push(
            rotate(
              {
                type: element.type,
                ...idField,
                ...element.fields,
                ...(element.type === 'mcp_approval_request' ? {} : caller),
              },
              nextId,
            ),
          );
          answers.push(rotate(answerOf(element, id, caller), nextId));
        }
      }
    }
    if (index < segments.length - 1) items.push(...answers);
  });
  // Assembled from the SDK's shapes field by field.
  return items as OpenAIResponsesItem[];
}

function answerOf(
  element: Extract<Element, { kind: 'call' }>,
  id: string,
  caller: object,
): Record<string, unknown> {
  const {
    output,
    text: answerText,
    isError,
    status: answerStatus,
    reason,
  } = element.answer as {
    output: unknown;
    text: string;
    isError: boolean;
    status?: string;
    reason?: string | null;
  };
  switch (element.type) {
    case 'function_call':
      return { type: 'function_call_output', call_id: id, output, ...caller };
    case 'custom_tool_call':
      return { type: 'custom_tool_call_output', call_id: id, output, ...caller };
    case 'computer_call':
      return {
        type: 'computer_call_output',
        call_id: id,
        output: { type: 'computer_screenshot', image_url: 'https://example.com/s.png' },
        acknowledged_safety_checks: [],
      };
    case 'local_shell_call':
      return {
        id,
        output: answerText,
        type: 'local_shell_call_output',
        ...(answerStatus === undefined ? {} : { status: answerStatus }),
      };
    case 'shell_call':
      return {
        type: 'shell_call_output',
        call_id: id,
        output: [
          {
            stdout: answerText,
            stderr: isError ? 'failed' : '',
            outcome: { type: 'exit', exit_code: isError ? 1 : 0 },
          },
        ],
        ...caller,
      };
    case 'apply_patch_call':
      return {
        type: 'apply_patch_call_output',
        call_id: id,
        status: isError ? 'failed' : 'completed',
        ...(isError ? {} : { output: answerText }),
      };
    case 'tool_search_call':
      return { type: 'tool_search_output', call_id: id, tools: [], execution: 'client' };
    default:
      return {
        type: 'mcp_approval_response',
        approval_request_id: id,
        approve: !isError,
        ...(reason === undefined ? {} : { reason }),
      };
  }
}

/** The record with its keys rotated by `shift`: a deterministic shuffle that shrinks well. */
function rotate(record: Record<string, unknown>, shift: number): Record<string, unknown> {
  const entries = Object.entries(record);
  if (entries.length === 0) return record;
  const start = shift % entries.length;
  return Object.fromEntries([...entries.slice(start), ...entries.slice(0, start)]);
}
