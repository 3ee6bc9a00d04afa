/**
 * Provider answers of an agent that uses the tools the generated conversations leave out: Anthropic's code
 * execution (bash and text editor), web fetch, an MCP server's tool and programmatic tool calling, and the
 * Responses shell, apply-patch, local shell, custom and client tool search tools. Shapes follow the providers' response schemas as
 * the AI SDK parses them (`@ai-sdk/anthropic`, `@ai-sdk/openai`). Each round ends with a call of a client tool, so the AI SDK runs the tool and asks again.
 */

import { responsesBody } from '../ai-sdk/loopback-provider.js';

/** A long tool output, so a handful of rounds is well over a small budget. */
export function longOutput(label: string, round: number): string {
  const lines = Array.from(
    { length: 40 },
    (_, line) => `${label} ${round}.${line}: src/module-${line % 7}.ts compiled, 12 checks passed, 0 skipped`,
  );
  return lines.join('\n');
}

/** Anthropic's answer for round `round` of the scripted agent (with thinking when the request asks for it). */
export function anthropicToolRound(round: number, thinking: boolean): unknown {
  const id = roundId(round);
  const programmatic = round % 5 === 4;
  return {
    id: id('msg'),
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [
      ...(thinking
        ? [{ type: 'thinking', thinking: `Round ${round}: check, then read.`, signature: id('signature') }]
        : []),
      ...programmaticResult(round),
      { type: 'text', text: `Round ${round}: checking before the next read.` },
      ...anthropicServerBlocks(round),
      {
        type: 'tool_use',
        id: id('toolu'),
        name: 'read_file',
        input: { path: `src/module-${round}.ts` },
        ...(programmatic
          ? { caller: { type: 'code_execution_20250825', tool_id: id('srvtoolu_code') } }
          : {}),
      },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 1000 + round * 900, output_tokens: 40 },
  };
}

/** The ids of a round's blocks: a kind and the round's number, four digits. */
function roundId(round: number): (kind: string) => string {
  return (kind) => `${kind}_${String(round).padStart(4, '0')}`;
}

/**
 * The server-run tools of a round, one kind after the other: web fetch, bash and text editor code execution, an
 * MCP tool (each with its result in the same answer), and the code execution that calls the client tool.
 */
function anthropicServerBlocks(round: number): object[] {
  const id = roundId(round);
  return [
    [
      {
        type: 'server_tool_use',
        id: id('srvtoolu_fetch'),
        name: 'web_fetch',
        input: { url: `https://docs.example.com/page-${round}` },
      },
      {
        type: 'web_fetch_tool_result',
        tool_use_id: id('srvtoolu_fetch'),
        content: {
          type: 'web_fetch_result',
          url: `https://docs.example.com/page-${round}`,
          retrieved_at: '2026-01-05T10:00:00Z',
          content: {
            type: 'document',
            title: `Page ${round}`,
            source: { type: 'text', media_type: 'text/plain', data: longOutput('fetched', round) },
          },
        },
      },
    ],
    [
      {
        type: 'server_tool_use',
        id: id('srvtoolu_bash'),
        name: 'bash_code_execution',
        input: { command: 'pytest -q' },
      },
      {
        type: 'bash_code_execution_tool_result',
        tool_use_id: id('srvtoolu_bash'),
        content: {
          type: 'bash_code_execution_result',
          stdout: longOutput('pytest', round),
          stderr: '',
          return_code: 0,
          content: [],
        },
      },
    ],
    [
      {
        type: 'server_tool_use',
        id: id('srvtoolu_edit'),
        name: 'text_editor_code_execution',
        input: { command: 'view', path: '/tmp/report.py' },
      },
      {
        type: 'text_editor_code_execution_tool_result',
        tool_use_id: id('srvtoolu_edit'),
        content: {
          type: 'text_editor_code_execution_view_result',
          content: longOutput('report.py', round),
          file_type: 'text',
          num_lines: 40,
          start_line: 1,
          total_lines: 40,
        },
      },
    ],
    [
      {
        type: 'mcp_tool_use',
        id: id('mcptoolu'),
        name: 'search_docs',
        server_name: 'docs',
        input: { query: `module ${round} build flags` },
      },
      {
        type: 'mcp_tool_result',
        tool_use_id: id('mcptoolu'),
        is_error: false,
        content: [{ type: 'text', text: longOutput('docs', round) }],
      },
    ],
    // Programmatic tool calling: the code calls the client tool, and its result comes with the next answer.
    [{ type: 'server_tool_use', id: id('srvtoolu_code'), name: 'code_execution', input: { code: 'run()' } }],
  ][round % 5]!;
}

/** The result of the previous round's programmatic code execution, which comes with the next answer. */
function programmaticResult(round: number): object[] {
  if ((round + 4) % 5 !== 4 || round <= 0) return [];
  return [
    {
      type: 'code_execution_tool_result',
      tool_use_id: `srvtoolu_code_${String(round - 1).padStart(4, '0')}`,
      content: {
        type: 'code_execution_result',
        stdout: longOutput('run()', round),
        stderr: '',
        return_code: 0,
        content: [],
      },
    },
  ];
}

/** The Responses answer for round `round`: reasoning, then a call of one client-run tool. */
export function responsesToolRound(round: number): unknown {
  const id = (kind: string) => `${kind}_${String(round).padStart(4, '0')}`;
  const call = [
    {
      type: 'shell_call',
      id: id('sh'),
      call_id: id('call_shell'),
      status: 'completed',
      action: { commands: ['npm test', 'git status --short'] },
    },
    {
      type: 'apply_patch_call',
      id: id('apc'),
      call_id: id('call_patch'),
      status: 'completed',
      operation: {
        type: 'update_file',
        path: `src/module-${round}.ts`,
        diff: '@@\n-const a = 1;\n+const a = 2;\n',
      },
    },
    {
      type: 'local_shell_call',
      id: id('lsh'),
      call_id: id('call_local'),
      status: 'completed',
      action: { type: 'exec', command: ['ls', '-la'], working_directory: '/repo' },
    },
    {
      type: 'custom_tool_call',
      id: id('ctc'),
      call_id: id('call_custom'),
      name: 'run_sql',
      input: `SELECT * FROM runs WHERE round = ${round};`,
    },
    {
      type: 'tool_search_call',
      id: id('ts'),
      execution: 'client',
      call_id: id('call_search'),
      status: 'completed',
      arguments: { query: 'deployment tools' },
    },
    {
      type: 'function_call',
      id: id('fc'),
      call_id: id('call_read'),
      name: 'read_file',
      arguments: JSON.stringify({ path: `src/module-${round}.ts` }),
      status: 'completed',
    },
  ][round % 6]!;
  return responsesBody(id('resp'), [
    {
      type: 'reasoning',
      id: id('rs'),
      encrypted_content: `encrypted-${round}`,
      summary: [{ type: 'summary_text', text: `Round ${round}: run the next tool.` }],
    },
    call,
  ]);
}

/** An Anthropic body with a final text answer. */
export function anthropicText(text: string): unknown {
  return {
    id: 'msg_final',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1000, output_tokens: 20 },
  };
}

/** A Responses body with a final text answer. */
export function responsesText(text: string): unknown {
  return responsesBody('resp_final', [
    {
      type: 'message',
      id: 'msg_final',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    },
  ]);
}
