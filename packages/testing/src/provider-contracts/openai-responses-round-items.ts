import type { IdSource } from './id-source.js';
import type { JSONRecord } from './json-record.js';

/** The kinds of rounds a generated Responses conversation is made of. */
export const responsesRoundKinds = [
  'function',
  'custom',
  'computer',
  'local-shell',
  'shell',
  'apply-patch',
  'hosted',
  'mcp',
  'tool-search',
  'program',
  'answer',
] as const;

/** One kind of round. */
export type ResponsesRoundKind = (typeof responsesRoundKinds)[number];

/** The generated values of one round; `variant` picks among the shapes a kind can take. */
export interface ResponsesRound {
  kind: ResponsesRoundKind;
  reasoning: string;
  text: string;
  result: string;
  variant: number;
}

/** The input items of one round, a reasoning item (when reasoning is on) before each model output. */
export function responsesRoundItems(
  round: ResponsesRound,
  reasoningOn: boolean,
  ids: IdSource,
): JSONRecord[] {
  const reasoning = (): JSONRecord[] =>
    reasoningOn
      ? [
          {
            type: 'reasoning',
            id: ids.next('rs'),
            summary: [{ type: 'summary_text', text: round.reasoning }],
            encrypted_content: ids.token(),
            ...(round.variant % 3 === 0
              ? { content: [{ type: 'reasoning_text', text: round.reasoning }] }
              : {}),
          },
        ]
      : [];
  const { result, text, variant } = round;
  if (isClientCallKind(round.kind)) {
    const clientCall = clientCalls[round.kind];
    const callId = ids.next('call');
    const { call, output } = clientCall.items(round, ids);
    return [
      ...reasoning(),
      { type: clientCall.callType, id: ids.next(clientCall.idPrefix), call_id: callId, ...call },
      // A local shell output names its call by `id`, every other output by `call_id`.
      { type: clientCall.outputType, [clientCall.outputLink ?? 'call_id']: callId, ...output },
    ];
  }
  switch (round.kind) {
    case 'hosted':
      return [...reasoning(), hostedCall(variant, result, ids), assistantMessage(text, variant, ids)];
    case 'mcp':
      return mcpItems(round, reasoning, ids);
    case 'program':
      return programItems(round, reasoning, ids);
    case 'answer':
      return [...reasoning(), assistantMessage(text, variant, ids)];
  }
}

/**
 * An MCP round: the server's tool listing, then the call (after an approval request and its response, on odd
 * variants), then the answer.
 */
function mcpItems(round: ResponsesRound, reasoning: () => JSONRecord[], ids: IdSource): JSONRecord[] {
  const { result, text, variant } = round;
  const listing = {
    type: 'mcp_list_tools',
    id: ids.next('mcpl'),
    server_label: 'docs',
    tools: [{ name: 'search_docs', input_schema: { type: 'object' } }],
  };
  const call = (approval: string | null) => ({
    type: 'mcp_call',
    id: ids.next('mcp'),
    server_label: 'docs',
    name: 'search_docs',
    arguments: '{"query":"retry"}',
    output: result,
    status: 'completed',
    ...(approval === null ? {} : { approval_request_id: approval }),
  });
  if (variant % 2 === 0) return [listing, ...reasoning(), call(null), assistantMessage(text, variant, ids)];
  const request = {
    type: 'mcp_approval_request',
    id: ids.next('mcpr'),
    server_label: 'docs',
    name: 'search_docs',
    arguments: '{"query":"retry"}',
  };
  return [
    listing,
    ...reasoning(),
    request,
    { type: 'mcp_approval_response', approval_request_id: request.id, approve: true, reason: 'allowed' },
    ...reasoning(),
    call(request.id),
    assistantMessage(text, variant, ids),
  ];
}

/** A program round: code that calls a client tool, the call and its output naming it as caller, its output. */
function programItems(round: ResponsesRound, reasoning: () => JSONRecord[], ids: IdSource): JSONRecord[] {
  const { result, text } = round;
  const programId = ids.next('call');
  const callId = ids.next('call');
  const caller = { type: 'program', caller_id: programId };
  return [
    ...reasoning(),
    {
      type: 'program',
      id: ids.next('prg'),
      call_id: programId,
      code: 'await tools.read_file({ path })',
      fingerprint: ids.token(),
    },
    {
      type: 'function_call',
      id: ids.next('fc'),
      call_id: callId,
      name: 'read_file',
      arguments: '{"path":"a.ts"}',
      caller,
    },
    { type: 'function_call_output', call_id: callId, output: result, caller },
    {
      type: 'program_output',
      id: ids.next('prgo'),
      call_id: programId,
      result: text,
      status: 'completed',
    },
  ];
}

/** The round kinds that are one client-side call and the output the client sends back. */
type ClientCallKind =
  | 'function'
  | 'custom'
  | 'computer'
  | 'local-shell'
  | 'shell'
  | 'apply-patch'
  | 'tool-search';

/**
 * How each client call kind is written: the types of its call and output items, the prefix of the call item's
 * id, and their other fields (`items` draws them, sharing what both carry, such as a safety check).
 */
interface ClientCall {
  callType: string;
  outputType: string;
  idPrefix: string;
  outputLink?: 'id';
  items(round: ResponsesRound, ids: IdSource): { call: JSONRecord; output: JSONRecord };
}

const searchedTools = [
  { type: 'function', name: 'lint', parameters: { type: 'object', properties: {} }, strict: false },
];

const patchOperations = [
  { type: 'update_file', path: 'src/index.ts', diff: '@@\n-old\n+new' },
  { type: 'create_file', path: 'src/new.ts', diff: '+export {};' },
  { type: 'delete_file', path: 'src/old.ts' },
];

const clientCalls: Record<ClientCallKind, ClientCall> = {
  function: {
    callType: 'function_call',
    outputType: 'function_call_output',
    idPrefix: 'fc',
    items: ({ result, variant }, ids) => ({
      call: { name: 'read_file', arguments: '{"path":"src/index.ts"}', status: 'completed' },
      output: { output: variant % 2 === 0 ? result : outputParts(result, ids) },
    }),
  },
  custom: {
    callType: 'custom_tool_call',
    outputType: 'custom_tool_call_output',
    idPrefix: 'ctc',
    items: ({ result, text, variant }) => ({
      call: { name: 'apply_diff', input: text },
      output: { output: variant % 2 === 0 ? result : [{ type: 'input_text', text: result }] },
    }),
  },
  computer: {
    callType: 'computer_call',
    outputType: 'computer_call_output',
    idPrefix: 'cu',
    items: ({ variant }, ids) => {
      const check = { id: ids.next('cu_sc'), code: 'malicious_instructions', message: 'Check the page' };
      const checked = variant % 2 === 0;
      return {
        call: {
          action: { type: 'click', button: 'left', x: 120, y: 48 },
          pending_safety_checks: checked ? [check] : [],
          status: 'completed',
        },
        output: {
          output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
          ...(checked ? { acknowledged_safety_checks: [check] } : {}),
        },
      };
    },
  },
  'local-shell': {
    callType: 'local_shell_call',
    outputType: 'local_shell_call_output',
    idPrefix: 'lsh',
    outputLink: 'id',
    items: ({ result }) => ({
      call: { action: { type: 'exec', command: ['ls', '-la'], env: {} }, status: 'completed' },
      output: { output: JSON.stringify({ stdout: result }) },
    }),
  },
  shell: {
    callType: 'shell_call',
    outputType: 'shell_call_output',
    idPrefix: 'sh',
    items: ({ result, variant }) => ({
      call: { action: { commands: ['npm test'], timeout_ms: 60_000 }, status: 'completed' },
      output: {
        output: [
          {
            stdout: result,
            stderr: '',
            outcome: variant % 4 === 0 ? { type: 'timeout' } : { type: 'exit', exit_code: 0 },
          },
        ],
        max_output_length: 100_000,
      },
    }),
  },
  'apply-patch': {
    callType: 'apply_patch_call',
    outputType: 'apply_patch_call_output',
    idPrefix: 'apc',
    items: ({ result, variant }) => ({
      call: { operation: patchOperations[variant % 3], status: 'completed' },
      output: { status: variant % 5 === 0 ? 'failed' : 'completed', output: result },
    }),
  },
  'tool-search': {
    callType: 'tool_search_call',
    outputType: 'tool_search_output',
    idPrefix: 'ts',
    items: () => ({
      call: { arguments: { query: 'lint' }, execution: 'client', status: 'completed' },
      output: { execution: 'client', status: 'completed', tools: searchedTools },
    }),
  },
};

function isClientCallKind(kind: ResponsesRoundKind): kind is ClientCallKind {
  return Object.hasOwn(clientCalls, kind);
}

function outputParts(result: string, ids: IdSource): JSONRecord[] {
  return [
    { type: 'input_text', text: result },
    { type: 'input_image', image_url: 'https://example.com/chart.png', detail: 'low' },
    { type: 'input_file', file_id: ids.next('file'), filename: 'log.txt' },
  ];
}

function hostedCall(variant: number, result: string, ids: IdSource): JSONRecord {
  switch (variant % 4) {
    case 0: {
      const actions = [
        {
          type: 'search',
          query: 'release notes',
          sources: [{ type: 'url', url: 'https://example.com/releases' }],
        },
        { type: 'open_page', url: 'https://example.com/releases' },
        { type: 'find_in_page', url: 'https://example.com/releases', pattern: 'breaking' },
      ];
      return {
        type: 'web_search_call',
        id: ids.next('ws'),
        action: actions[variant % 3],
        status: 'completed',
      };
    }
    case 1:
      return {
        type: 'file_search_call',
        id: ids.next('fs'),
        queries: ['retry policy'],
        status: 'completed',
        results: [{ file_id: ids.next('file'), filename: 'design.md', score: 0.8, text: result }],
      };
    case 2:
      return {
        type: 'code_interpreter_call',
        id: ids.next('ci'),
        code: 'print(1 + 1)',
        container_id: 'cntr_1',
        outputs: [
          { type: 'logs', logs: result },
          { type: 'image', url: 'https://example.com/plot.png' },
        ],
        status: 'completed',
      };
    default:
      return {
        type: 'image_generation_call',
        id: ids.next('ig'),
        result: 'iVBORw0KGgo=',
        status: 'completed',
      };
  }
}

function assistantMessage(text: string, variant: number, ids: IdSource): JSONRecord {
  switch (variant % 3) {
    case 0:
      return { role: 'assistant', content: text, phase: 'final_answer' };
    case 1: {
      const annotations = [
        {
          type: 'url_citation',
          url: 'https://example.com/releases',
          title: 'Release notes',
          start_index: 0,
          end_index: Math.min(5, text.length),
        },
        { type: 'file_citation', file_id: ids.next('file'), filename: 'design.md', index: 0 },
        {
          type: 'container_file_citation',
          container_id: 'cntr_1',
          file_id: ids.next('file'),
          filename: 'plot.png',
          start_index: 0,
          end_index: 1,
        },
        { type: 'file_path', file_id: ids.next('file'), index: 0 },
      ];
      return {
        type: 'message',
        id: ids.next('msg'),
        role: 'assistant',
        status: 'completed',
        phase: 'commentary',
        content: [
          { type: 'output_text', text, annotations: [annotations[text.length % annotations.length]] },
        ],
      };
    }
    default:
      return {
        type: 'message',
        id: ids.next('msg'),
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'refusal', refusal: text }],
      };
  }
}
