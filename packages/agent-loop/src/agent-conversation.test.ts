import { createCompactor, createTokenCounter, InvalidMessagesError, type Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { keepEnds } from './__fixtures__/keep-ends.js';
import { AgentConversation } from './agent-conversation.js';
import type { AgentConversationTypes, ConversationAdapter } from './conversation-adapter.js';

/** A toy API: user text, answers with call ids, one result item per call. */
type Item =
  | { kind: 'user'; text: string }
  | { kind: 'answer'; text: string; calls: string[] }
  | { kind: 'result'; id: string; output: string };

interface ToyTypes extends AgentConversationTypes {
  item: Item;
  request: { temperature: number };
  body: { temperature?: number; messages: Message[] };
  response: Item & { kind: 'answer' };
  toolCall: string;
  toolResult: { id: string; output: string };
  toolOutput: string;
  userInput: string;
  context: Message[];
  inputTokens: undefined;
}

function toCore(item: Item): Message {
  if (item.kind === 'user') return { role: 'user', content: [{ type: 'text', text: item.text }] };
  if (item.kind === 'result') {
    return {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: item.id, toolName: '', output: item.output }],
    };
  }
  const calls = item.calls.map((id) => ({
    type: 'tool-call' as const,
    toolCallId: id,
    toolName: 'run',
    input: {},
  }));
  return { role: 'assistant', content: [{ type: 'text', text: item.text }, ...calls] };
}

/** A conversation over the toy API whose model answers from a script, and the bodies it was sent. */
function toyConversation(script: Array<string[]>) {
  const bodies: ToyTypes['body'][] = [];
  let turn = 0;
  const adapter: ConversationAdapter<ToyTypes> = {
    vocabulary: { call: 'tool call', result: 'result', callsPath: 'calls', answerPath: 'id' },
    parseContextOverflow: () => undefined,
    toCompactionError: (error) => (error instanceof Error ? error : new Error(String(error))),
    toCore: (items) => items.map(toCore),
    userItems: (text) => [{ kind: 'user', text }],
    resultItems: (results) => results.map((result) => ({ kind: 'result', ...result })),
    answersOf: (items) => ({
      callIds: items.flatMap((item) => (item.kind === 'result' ? [item.id] : [])),
      closesTurn: items.some((item) => item.kind !== 'result'),
    }),
    pendingToolCalls(history) {
      const answer = history.findLast((item) => item.kind === 'answer');
      const answered = new Set(history.flatMap((item) => (item.kind === 'result' ? [item.id] : [])));
      return answer?.kind === 'answer' ? answer.calls.filter((id) => !answered.has(id)) : [];
    },
    callId: (call) => call,
    resultOf: (id, output) => ({ id, output }),
    failureOf: (id, message) => ({ id, output: `failed: ${message}` }),
    context: (messages) => messages,
    body: (messages, request) => ({ ...request, messages }),
    async send(body) {
      bodies.push(body);
      const response = { kind: 'answer' as const, text: `answer ${turn}`, calls: script[turn++] ?? [] };
      return { response, items: [response], inputTokens: undefined };
    },
  };
  const compactor = createCompactor({
    strategy: keepEnds(),
    counter: createTokenCounter(),
    budget: { contextWindow: 100_000, reservedOutputTokens: 0 },
  });
  return { conversation: new AgentConversation({ compactor, adapter }), bodies, compactor, adapter };
}

describe('AgentConversation', () => {
  it('runs the tools the model calls until it stops calling, answering failed tools with their error', async () => {
    const { conversation, bodies } = toyConversation([['a', 'b'], ['c'], []]);
    const response = await conversation.run('start', {
      runTool: (id) => {
        if (id === 'b') throw new Error('boom');
        return `out ${id}`;
      },
      request: { temperature: 0 },
    });
    expect(response.text).toBe('answer 2');
    expect(bodies).toHaveLength(3);
    expect(bodies.every((body) => body.temperature === 0)).toBe(true);
    expect(conversation.history).toEqual([
      { kind: 'user', text: 'start' },
      { kind: 'answer', text: 'answer 0', calls: ['a', 'b'] },
      { kind: 'result', id: 'a', output: 'out a' },
      { kind: 'result', id: 'b', output: 'failed: boom' },
      { kind: 'answer', text: 'answer 1', calls: ['c'] },
      { kind: 'result', id: 'c', output: 'out c' },
      { kind: 'answer', text: 'answer 2', calls: [] },
    ]);
    // Results converted apart from their calls are named after them.
    const names = conversation.coreHistory.flatMap((message) =>
      message.role === 'tool' ? message.content.map((part) => part.toolName) : [],
    );
    expect(names).toEqual(['run', 'run', 'run']);
  });

  it('stops after maxSteps model calls, leaving the last calls pending', async () => {
    const { conversation, bodies } = toyConversation([['a'], ['b'], ['c']]);
    await conversation.run('start', { runTool: () => 'ok', maxSteps: 2 });
    expect(bodies).toHaveLength(2);
    expect(conversation.pendingToolCalls).toEqual(['b']);
  });

  it('refuses a user turn or a send while calls are pending, and results that answer no pending call', async () => {
    const { conversation, bodies } = toyConversation([['a', 'b']]);
    await conversation.send('start');
    expect(() => conversation.addUserMessage('next')).toThrow(InvalidMessagesError);
    await expect(conversation.send()).rejects.toThrow(InvalidMessagesError);
    expect(() => conversation.addToolResults([{ id: 'z', output: 'x' }])).toThrow(InvalidMessagesError);
    conversation.addToolResults([{ id: 'a', output: 'x' }]);
    expect(conversation.pendingToolCalls).toEqual(['b']);
    expect(bodies).toHaveLength(1);
    expect(conversation.history).toHaveLength(3);
  });

  it('holds frozen copies of the answers, leaving the SDK objects as they came', async () => {
    const { conversation } = toyConversation([['a']]);
    const response = await conversation.send('start');
    const held = conversation.history[1];
    expect(held).toEqual(response);
    expect(held).not.toBe(response);
    expect(Object.isFrozen(held)).toBe(true);
    expect(Object.isFrozen(response)).toBe(false);
  });

  it('refuses compactTool and beforeCompaction over an adapter without the wires they need', () => {
    const { compactor, adapter } = toyConversation([]);
    expect(() => new AgentConversation({ compactor, adapter, compactTool: true })).toThrow(/no tool wire/);
    expect(() => new AgentConversation({ compactor, adapter, beforeCompaction: true })).toThrow(
      /no note wire/,
    );
    expect(
      () => new AgentConversation({ compactor, adapter, compactTool: false, beforeCompaction: false }),
    ).not.toThrow();
  });
});
