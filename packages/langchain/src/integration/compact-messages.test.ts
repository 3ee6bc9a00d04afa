import { openAIChatViolations } from '@compaction/testing';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from '@langchain/core/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { chatModel, fileText } from '../__fixtures__/coding-agent.js';
import { type ScriptedModelServer, startScriptedModel } from '../__fixtures__/scripted-model-server.js';
import { compactMessages } from './compact-messages.js';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const task = 'Find out why the invoice total is off by one cent.';
const call = (id: string, path: string) => ({
  type: 'tool_call' as const,
  id,
  name: 'read_file',
  args: { path },
});

/** A LangGraph agent's history: the task, a turn calling two tools at once, their results, an answer, a request. */
function history(): BaseMessage[] {
  return [
    new SystemMessage('You are a coding agent.'),
    new HumanMessage(task),
    new AIMessage({ content: '', tool_calls: [call('call_a', 'src/a.ts')] }),
    new ToolMessage({ content: fileText('src/a.ts'), tool_call_id: 'call_a', name: 'read_file' }),
    new AIMessage({ content: '', tool_calls: [call('call_b', 'src/b.ts'), call('call_c', 'src/c.ts')] }),
    new ToolMessage({ content: fileText('src/b.ts'), tool_call_id: 'call_b', name: 'read_file' }),
    new ToolMessage({ content: fileText('src/c.ts'), tool_call_id: 'call_c', name: 'read_file' }),
    new AIMessage('The rounding in src/c.ts truncates half cents.'),
    new HumanMessage('Now fix it.'),
  ];
}

/** Tokens as four characters each: the counter `trimMessages` is given. */
const tokenCounter = (messages: BaseMessage[]) =>
  messages.reduce((sum, message) => sum + Math.ceil(JSON.stringify(message.content).length / 4), 0);

/** Sends messages through `ChatOpenAI` to the loopback model and returns the request body it wrote. */
async function sentBody(messages: BaseMessage[]): Promise<unknown> {
  server ??= await startScriptedModel(() => ({ kind: 'text', text: 'ok' }));
  await chatModel('openai', server.url).invoke(messages);
  return server.requests.at(-1)!.body;
}

describe('compactMessages against trimMessages', () => {
  it('keeps tool calls with their results and the task where trimMessages orphans a result', async () => {
    const messages = history();
    const limit = tokenCounter(messages.slice(-3)) + tokenCounter(messages.slice(0, 1)) + 50;

    const trimmed = await trimMessages(messages, {
      maxTokens: limit,
      strategy: 'last',
      tokenCounter,
      includeSystem: true,
    });
    // The trim starts at the second result of a turn: its call and the first result are gone.
    expect(trimmed.map((message) => message.getType())).toEqual(['system', 'tool', 'ai', 'human']);
    const trimmedViolations = openAIChatViolations(await sentBody(trimmed));
    expect(trimmedViolations.map((violation) => violation.rule)).toContain(
      'openai-chat.tool-message-follows-call',
    );
    expect(trimmed.map((message) => message.text)).not.toContain(task);

    const compacted = await compactMessages(messages, {
      strategy: 'sliding-window',
      budget: { contextWindow: limit * 2, reservedOutputTokens: 0, safetyMargin: 0, target: 0.5 },
      trigger: 'manual',
    });
    expect(openAIChatViolations(await sentBody(compacted))).toEqual([]);
    expect(compacted.map((message) => message.text)).toContain(task);
    expect(compacted.at(-1)).toBe(messages.at(-1));
    expect(compacted.length).toBeLessThan(messages.length);
    // Messages it kept are the caller's own objects; the input is unchanged.
    for (const message of compacted.filter((kept) => messages.includes(kept))) {
      expect(messages).toContain(message);
    }
    expect(messages).toHaveLength(9);
  });

  it('returns the messages as they are under the trigger', async () => {
    const messages = history();
    const result = await compactMessages(messages, {
      strategy: 'sliding-window',
      budget: { contextWindow: 1_000_000 },
    });
    expect(result).toEqual(messages);
    for (const [index, message] of result.entries()) expect(message).toBe(messages[index]);
  });
});
