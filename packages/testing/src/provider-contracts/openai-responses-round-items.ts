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
  switch (round.kind) {
    case 'function': {
      const callId = ids.next('call');
      return [
        ...reasoning(),
        {
          type: 'function_call',
          id: ids.next('fc'),
          call_id: callId,
          name: 'read_file',
          arguments: '{"path":"src/index.ts"}',
          status: 'completed',
        },
        {
          type: 'function_call_output',
          call_id: callId,
          output: variant % 2 === 0 ? result : outputParts(result, ids),
        },
      ];
    }
    case 'custom': {
      const callId = ids.next('call');
      return [
        ...reasoning(),
        { type: 'custom_tool_call', id: ids.next('ctc'), call_id: callId, name: 'apply_diff', input: text },
        {
          type: 'custom_tool_call_output',
          call_id: callId,
          output: variant % 2 === 0 ? result : [{ type: 'input_text', text: result }],
        },
      ];
    }
    case 'computer': {
      const callId = ids.next('call');
      const check = { id: ids.next('cu_sc'), code: 'malicious_instructions', message: 'Check the page' };
      return [
        ...reasoning(),
        {
          type: 'computer_call',
          id: ids.next('cu'),
          call_id: callId,
          action: { type: 'click', button: 'left', x: 120, y: 48 },
          pending_safety_checks: variant % 2 === 0 ? [check] : [],
          status: 'completed',
        },
        {
          type: 'computer_call_output',
          call_id: callId,
          output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
          ...(variant % 2 === 0 ? { acknowledged_safety_checks: [check] } : {}),
        },
      ];
    }
    case 'local-shell': {
      const callId = ids.next('call');
      return [
        ...reasoning(),
        {
          type: 'local_shell_call',
          id: ids.next('lsh'),
          call_id: callId,
          action: { type: 'exec', command: ['ls', '-la'], env: {} },
          status: 'completed',
        },
        { type: 'local_shell_call_output', id: callId, output: JSON.stringify({ stdout: result }) },
      ];
    }
    case 'shell': {
      const callId = ids.next('call');
      return [
        ...reasoning(),
        {
          type: 'shell_call',
          id: ids.next('sh'),
          call_id: callId,
          action: { commands: ['npm test'], timeout_ms: 60_000 },
          status: 'completed',
        },
        {
          type: 'shell_call_output',
          call_id: callId,
          output: [
            {
              stdout: result,
              stderr: '',
              outcome: variant % 4 === 0 ? { type: 'timeout' } : { type: 'exit', exit_code: 0 },
            },
          ],
          max_output_length: 100_000,
        },
      ];
    }
    case 'apply-patch': {
      const callId = ids.next('call');
      const operations = [
        { type: 'update_file', path: 'src/index.ts', diff: '@@\n-old\n+new' },
        { type: 'create_file', path: 'src/new.ts', diff: '+export {};' },
        { type: 'delete_file', path: 'src/old.ts' },
      ];
      return [
        ...reasoning(),
        {
          type: 'apply_patch_call',
          id: ids.next('apc'),
          call_id: callId,
          operation: operations[variant % 3],
          status: 'completed',
        },
        {
          type: 'apply_patch_call_output',
          call_id: callId,
          status: variant % 5 === 0 ? 'failed' : 'completed',
          output: result,
        },
      ];
    }
    case 'hosted':
      return [...reasoning(), hostedCall(variant, result, ids), assistantMessage(text, variant, ids)];
    case 'mcp': {
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
      if (variant % 2 === 0)
        return [listing, ...reasoning(), call(null), assistantMessage(text, variant, ids)];
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
    case 'tool-search': {
      const callId = ids.next('call');
      return [
        ...reasoning(),
        {
          type: 'tool_search_call',
          id: ids.next('ts'),
          call_id: callId,
          arguments: { query: 'lint' },
          execution: 'client',
          status: 'completed',
        },
        {
          type: 'tool_search_output',
          call_id: callId,
          execution: 'client',
          status: 'completed',
          tools: [
            { type: 'function', name: 'lint', parameters: { type: 'object', properties: {} }, strict: false },
          ],
        },
      ];
    }
    case 'program': {
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
    case 'answer':
      return [...reasoning(), assistantMessage(text, variant, ids)];
  }
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
