import type { Message, ToolResultPart } from '@compaction/core';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { fromAiSdk, toAiSdk } from './ai-sdk-messages.js';

// The OpenAI provider of the AI SDK writes the result of its shell, local shell, apply-patch and client tool
// search tools as the item those calls need (`shell_call_output`...) only when the output is JSON of the
// tool's shape; any other output becomes a `function_call_output`, which answers no function call and is
// refused. A strategy that shortens such a result (its JSON text, cut) must leave it JSON of the same shape.

const long = Array.from({ length: 30 }, (_, line) => `line ${line}: 12 checks passed`).join('\n');

function toolMessage(toolName: string, value: unknown): ModelMessage {
  return {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'call_1', toolName, output: { type: 'json', value } as never },
    ],
  };
}

/** The message with its tool result's text replaced, as a truncating strategy does. */
function shortened(message: Message): Message {
  const part = message.content[0] as ToolResultPart;
  const text = part.output as string;
  const cut = `${text.slice(0, 40)}\n[... ${text.length - 60} characters cut ...]\n${text.slice(-20)}`;
  return { ...message, content: [{ ...part, output: cut }] } as Message;
}

function roundTrip(toolName: string, value: unknown) {
  const [decoded] = fromAiSdk([toolMessage(toolName, value)]);
  const [encoded] = toAiSdk([shortened(decoded!)]);
  return (encoded!.content as Array<{ output: { type: string; value: unknown } }>)[0]!.output;
}

describe('a shortened JSON result of a provider tool keeps its shape', () => {
  it('shell: one entry holding the shortened text, with the first entry outcome', () => {
    const output = roundTrip('shell', {
      output: [
        { stdout: long, stderr: '', outcome: { type: 'exit', exitCode: 0 } },
        { stdout: long, stderr: 'warning', outcome: { type: 'exit', exitCode: 2 } },
      ],
    });
    expect(output.type).toBe('json');
    const value = output.value as { output: Array<{ stdout: string; stderr: string; outcome: unknown }> };
    expect(value.output).toHaveLength(1);
    expect(value.output[0]!.stdout).toContain('characters cut');
    expect(value.output[0]).toMatchObject({ stderr: '', outcome: { type: 'exit', exitCode: 0 } });
  });

  it('local shell: the output string', () => {
    const output = roundTrip('local_shell', { output: long });
    expect(output.type).toBe('json');
    expect(Object.keys(output.value as object)).toEqual(['output']);
    expect((output.value as { output: string }).output).toContain('characters cut');
  });

  it('apply patch: the status kept, the output shortened', () => {
    const output = roundTrip('apply_patch', { status: 'failed', output: long });
    expect(output.type).toBe('json');
    expect(output.value).toMatchObject({ status: 'failed' });
    expect((output.value as { output: string }).output).toContain('characters cut');
  });

  it('client tool search: the tools it loaded, as they were (there is no place for text)', () => {
    const tools = [
      { type: 'function', name: 'get_weather', description: long, parameters: { type: 'object' } },
      { type: 'function', name: 'get_time', description: long, parameters: { type: 'object' } },
    ];
    const output = roundTrip('tool_search', { tools });
    expect(output).toEqual({ type: 'json', value: { tools } });
  });

  it('any other JSON result, shortened, is sent as text, as before', () => {
    const output = roundTrip('search_code', { matches: [long, long] });
    expect(output.type).toBe('text');
    expect(output.value).toContain('characters cut');
  });

  it('a result left as it was comes back unchanged', () => {
    const value = { output: [{ stdout: long, stderr: '', outcome: { type: 'timeout' } }] };
    const [decoded] = fromAiSdk([toolMessage('shell', value)]);
    const [encoded] = toAiSdk([decoded!]);
    expect(encoded).toEqual(toolMessage('shell', value));
  });
});
