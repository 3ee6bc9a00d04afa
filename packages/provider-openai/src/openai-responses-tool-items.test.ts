import {
  compactionMetadataOf,
  createTokenCounter,
  latestUserMessageIndex,
  type Message,
  repairHistory,
  type ToolCallPart,
} from '@compaction/core';
import { groupTurns } from '@compaction/strategy-kit';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { describe, expect, it } from 'vitest';
import { fromOpenAIResponsesInput } from './from-openai-responses-input.js';
import type { OpenAIResponsesItem } from './openai-responses-request.js';
import { toOpenAIResponsesInput } from './to-openai-responses-input.js';

const long = (label: string) => `${label}: ${'output line\n'.repeat(300)}`;

/** An agent turn using every tool the client runs, each answered, then a new request. */
const toolInput: OpenAIResponsesItem[] = [
  { role: 'user', content: 'Fix the failing build.' },
  { type: 'reasoning', id: 'rs_1', summary: [] },
  { type: 'custom_tool_call', call_id: 'call_custom', name: 'grep', input: 'TODO src/' },
  {
    type: 'local_shell_call',
    id: 'lsh_1',
    call_id: 'call_local',
    status: 'completed',
    action: { type: 'exec', command: ['ls'], env: {} },
  },
  { type: 'shell_call', call_id: 'call_shell', action: { commands: ['npm test'] } },
  {
    type: 'apply_patch_call',
    call_id: 'call_patch',
    status: 'completed',
    operation: { type: 'update_file', path: 'src/a.ts', diff: '@@ -1 +1 @@' },
  },
  {
    type: 'computer_call',
    id: 'cu_1',
    call_id: 'call_computer',
    status: 'completed',
    pending_safety_checks: [],
    action: { type: 'screenshot' },
  },
  { type: 'mcp_approval_request', id: 'mcpr_1', name: 'deploy', server_label: 'ops', arguments: '{}' },
  { type: 'custom_tool_call_output', call_id: 'call_custom', output: long('grep') },
  { type: 'local_shell_call_output', id: 'call_local', output: long('ls') },
  {
    type: 'shell_call_output',
    call_id: 'call_shell',
    output: [{ stdout: long('npm test'), stderr: 'warn', outcome: { type: 'exit', exit_code: 1 } }],
  },
  { type: 'apply_patch_call_output', call_id: 'call_patch', status: 'completed', output: long('patch') },
  {
    type: 'computer_call_output',
    call_id: 'call_computer',
    output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
  },
  { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true },
  {
    type: 'mcp_call',
    id: 'mcp_1',
    name: 'deploy',
    server_label: 'ops',
    arguments: '{}',
    approval_request_id: 'mcpr_1',
  },
  { role: 'assistant', content: 'Deployed.' },
  { role: 'user', content: 'Now write the changelog.' },
];

describe('tool items other than functions', () => {
  const messages = fromOpenAIResponsesInput(toolInput);

  it('become calls of the assistant and results of a tool message, so the newest request is the last user message', () => {
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(
      messages[1]!.content.map((part) => (part.type === 'tool-call' ? part.toolName : part.type)),
    ).toEqual(['reasoning', 'grep', 'local_shell', 'shell', 'apply_patch', 'computer', 'deploy']);
    expect(
      messages[2]!.content.map((part) => part.type === 'tool-result' && [part.toolCallId, part.toolName]),
    ).toEqual([
      ['call_custom', 'grep'],
      ['call_local', 'local_shell'],
      ['call_shell', 'shell'],
      ['call_patch', 'apply_patch'],
      ['call_computer', 'computer'],
      ['mcpr_1', 'deploy'],
    ]);
    expect(latestUserMessageIndex(messages)).toBe(4);
  });

  it('show their outputs to strategies as text, or the screenshot as an image', () => {
    const outputs = messages[2]!.content.map((part) => part.type === 'tool-result' && part.output);
    expect(outputs[0]).toBe(long('grep'));
    expect(outputs[2]).toBe(`${long('npm test')}\nwarn`);
    expect(outputs[4]).toEqual([{ type: 'image', image: 'data:image/png;base64,iVBORw0KGgo=' }]);
    expect(outputs[5]).toBe('approved');
  });

  it('keep the MCP call made under an approval with the approval', () => {
    expect(compactionMetadataOf(messages[3]!)?.joinsPrevious).toBe(true);
    expect(groupTurns(messages).map((turn) => [turn.start, turn.end])).toEqual([
      [0, 1],
      [1, 4],
      [4, 5],
    ]);
  });

  it('go back exactly as they came', () => {
    expect(JSON.stringify(toOpenAIResponsesInput(messages))).toBe(JSON.stringify(toolInput));
  });

  it('go back shortened in their own shape after truncation; screenshots and approvals go back as they came', async () => {
    const counter = createTokenCounter();
    const total = counter.estimate(messages);
    const { messages: truncated } = await createToolResultTruncation({ mode: 'mask', keepRecent: 0 }).compact(
      {
        messages,
        counter,
        budget: { limit: total, target: 1 },
        trigger: 'auto',
        round: 1,
      },
    );
    const items = toOpenAIResponsesInput(truncated) as unknown as OpenAIResponsesItem[];
    const byType = (type: string) => items.find((item) => item.type === type)!;
    expect(byType('custom_tool_call_output')).toEqual({
      type: 'custom_tool_call_output',
      call_id: 'call_custom',
      output: `[grep output removed: ${long('grep').length} characters]`,
    });
    expect(byType('local_shell_call_output').output).toMatch(/^\[local_shell output removed/);
    expect(byType('shell_call_output')).toEqual({
      type: 'shell_call_output',
      call_id: 'call_shell',
      output: [
        {
          stdout: expect.stringMatching(/^\[shell output removed/),
          stderr: '',
          outcome: { type: 'exit', exit_code: 1 },
        },
      ],
    });
    expect(byType('apply_patch_call_output')).toMatchObject({
      status: 'completed',
      output: expect.stringMatching(/removed/),
    });
    expect(byType('computer_call_output')).toEqual(toolInput[12]);
    expect(byType('mcp_approval_response')).toEqual(toolInput[13]);
    // The calls and everything else are untouched.
    expect(items.filter((item) => !item.type?.endsWith('_output'))).toEqual(
      toolInput.filter((item) => !item.type?.endsWith('_output')),
    );
  });

  it('answer a call left without output in the shape it needs once repaired; a computer call needs a screenshot', () => {
    const unanswered = fromOpenAIResponsesInput([
      { role: 'user', content: 'go' },
      { type: 'custom_tool_call', call_id: 'c1', name: 'grep', input: 'x' },
      { type: 'shell_call', call_id: 's1', action: { commands: ['ls'] } },
      { type: 'mcp_approval_request', id: 'a1', name: 'deploy', server_label: 'ops', arguments: '{}' },
      { role: 'user', content: 'and?' },
    ]);
    const repaired = toOpenAIResponsesInput(
      repairHistory(unanswered).messages,
    ) as unknown as OpenAIResponsesItem[];
    expect(repaired.slice(4, 7)).toEqual([
      {
        type: 'custom_tool_call_output',
        call_id: 'c1',
        output: '[No result was recorded for this tool call.]',
      },
      {
        type: 'shell_call_output',
        call_id: 's1',
        output: [
          {
            stdout: '',
            stderr: '[No result was recorded for this tool call.]',
            outcome: { type: 'exit', exit_code: 1 },
          },
        ],
      },
      { type: 'mcp_approval_response', approval_request_id: 'a1', approve: false },
    ]);
    const computer = fromOpenAIResponsesInput([
      { role: 'user', content: 'go' },
      {
        type: 'computer_call',
        call_id: 'k1',
        id: 'cu',
        status: 'completed',
        pending_safety_checks: [],
        action: { type: 'wait' },
      },
      { role: 'user', content: 'and?' },
    ]);
    expect(() => toOpenAIResponsesInput(repairHistory(computer).messages)).toThrow(/screenshot/);
  });

  it('send a custom tool input a strategy replaced as text', () => {
    const call = messages[1]!.content[1] as ToolCallPart;
    const edited: Message[] = [
      messages[0]!,
      { role: 'assistant', content: [{ ...call, input: { omitted: '10 characters' } }] },
    ];
    expect((toOpenAIResponsesInput(edited) as unknown as OpenAIResponsesItem[])[1]).toEqual({
      type: 'custom_tool_call',
      call_id: 'call_custom',
      name: 'grep',
      input: '{"omitted":"10 characters"}',
    });
  });
});

describe('items a turn is made of', () => {
  it('keep reasoning in the assistant message of the call it precedes', () => {
    const messages = fromOpenAIResponsesInput([
      { role: 'user', content: 'go' },
      { type: 'function_call', call_id: 'f1', name: 'read', arguments: '{}' },
      { type: 'function_call_output', call_id: 'f1', output: 'x' },
      { type: 'reasoning', id: 'rs_2', summary: [] },
      { type: 'custom_tool_call', call_id: 'c2', name: 'grep', input: 'y' },
      { type: 'custom_tool_call_output', call_id: 'c2', output: 'z' },
    ]);
    expect(messages.map((message) => message.content.map((part) => part.type))).toEqual([
      ['text'],
      ['tool-call'],
      ['tool-result'],
      ['reasoning', 'tool-call'],
      ['tool-result'],
    ]);
  });

  it('hold a program, the tools it calls and its output together as one turn', () => {
    const input: OpenAIResponsesItem[] = [
      { role: 'user', content: 'Sum the regions.' },
      { type: 'program', id: 'prog_1', call_id: 'p1', code: 'await sales("west")', fingerprint: 'fp' },
      {
        type: 'function_call',
        call_id: 'f1',
        name: 'sales',
        arguments: '{"region":"west"}',
        caller: { type: 'program', caller_id: 'p1' },
      },
      {
        type: 'function_call_output',
        call_id: 'f1',
        output: '12',
        caller: { type: 'program', caller_id: 'p1' },
      },
      {
        type: 'function_call',
        call_id: 'f2',
        name: 'sales',
        arguments: '{"region":"east"}',
        caller: { type: 'program', caller_id: 'p1' },
      },
      {
        type: 'function_call_output',
        call_id: 'f2',
        output: '9',
        caller: { type: 'program', caller_id: 'p1' },
      },
      { type: 'program_output', id: 'po_1', call_id: 'p1', result: '21', status: 'completed' },
      { role: 'assistant', content: 'The total is 21.' },
      { role: 'user', content: 'Thanks.' },
    ];
    const messages = fromOpenAIResponsesInput(input);
    expect(
      messages.map((message) => [message.role, compactionMetadataOf(message)?.joinsPrevious === true]),
    ).toEqual([
      ['user', false],
      ['assistant', false],
      ['tool', true],
      ['assistant', true],
      ['tool', true],
      ['assistant', true],
      ['user', false],
    ]);
    expect(groupTurns(messages).map((turn) => [turn.start, turn.end])).toEqual([
      [0, 1],
      [1, 6],
      [6, 7],
    ]);
    expect(JSON.stringify(toOpenAIResponsesInput(messages))).toBe(JSON.stringify(input));
  });

  it('keep an answer whose call came in an earlier response as what the application sends', () => {
    const input: OpenAIResponsesItem[] = [
      { type: 'function_call_output', call_id: 'call_earlier', output: '42' },
      { type: 'custom_tool_call_output', call_id: 'call_earlier_2', output: 'done' },
    ];
    const messages = fromOpenAIResponsesInput(input);
    expect(messages.map((message) => message.role)).toEqual(['user', 'user']);
    // No repair removes it: it answers no call core can see, but it is not a tool result either.
    expect(repairHistory(messages).messages).toEqual(messages);
    expect(JSON.stringify(toOpenAIResponsesInput(messages))).toBe(JSON.stringify(input));
  });

  it('read an item whose type is the name of an object method as an unknown item, kept verbatim', () => {
    const input: OpenAIResponsesItem[] = [
      { role: 'user', content: 'Hi.' },
      { type: 'valueOf', call_id: 'call_1' },
      { type: 'constructor', call_id: 'call_1', output: 'x' },
    ];
    const messages = fromOpenAIResponsesInput(input);
    expect(messages.flatMap((message) => message.content.map((part) => part.type))).toEqual([
      'text',
      'text',
      'text',
    ]);
    expect(JSON.stringify(toOpenAIResponsesInput(messages))).toBe(JSON.stringify(input));
  });
});
