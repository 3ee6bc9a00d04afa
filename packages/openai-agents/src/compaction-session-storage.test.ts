import { type CompactionEvent, InMemoryCompactionStore } from '@compaction/core';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { type AgentInputItem, type Model, type ModelRequest, RunContext, Usage } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { fileText } from './__fixtures__/scripted-agent-server.js';
import { compactionRecallTool } from './compaction-recall-tool.js';
import { CompactionSession } from './compaction-session.js';
import { createCompactionSession } from './create-compaction-session.js';

const budget = {
  contextWindow: 4_000,
  reservedOutputTokens: 500,
  safetyMargin: 0,
  trigger: 0.6,
  target: 0.3,
};

/** A conversation of `reads` file reads after the task, each about 800 tokens. */
function readingHistory(reads: number): AgentInputItem[] {
  return [
    { role: 'user', content: 'Read the billing modules.' },
    ...Array.from({ length: reads }, (_, index): AgentInputItem[] => [
      {
        type: 'function_call',
        callId: `call_${index}`,
        name: 'read_file',
        arguments: JSON.stringify({ path: `module-${index}.ts` }),
        status: 'completed',
      },
      {
        type: 'function_call_result',
        callId: `call_${index}`,
        name: 'read_file',
        status: 'completed',
        output: { type: 'text', text: fileText(`module-${index}.ts`) },
      },
    ]).flat(),
  ];
}

/** A model that records what it was asked and answers with nothing, reporting `inputTokens` of usage. */
function recordingModel(inputTokens = 0): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async getResponse(request) {
      requests.push(request);
      return { usage: new Usage({ inputTokens, outputTokens: 1, totalTokens: inputTokens + 1 }), output: [] };
    },
    async *getStreamedResponse() {
      yield* [];
    },
  };
}

describe('CompactionSession', () => {
  it('stores copies and keeps the order of getItems, popItem and clearSession', async () => {
    const session = new CompactionSession({ strategy: createSlidingWindow(), budget, sessionId: 'chat-1' });
    const item: AgentInputItem = { role: 'user', content: 'first' };
    await session.addItems([item, { role: 'user', content: 'second' }]);
    (item as { content: string }).content = 'changed by the caller';
    const read = await session.getItems();
    (read[1] as { content: string }).content = 'changed by the reader';

    expect(await session.getSessionId()).toBe('chat-1');
    expect(await session.getItems()).toEqual([
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
    ]);
    expect(await session.getItems(1)).toEqual([{ role: 'user', content: 'second' }]);
    expect(await session.getItems(0)).toEqual([]);
    expect(await session.popItem()).toEqual({ role: 'user', content: 'second' });
    expect(await session.getItems()).toEqual([{ role: 'user', content: 'first' }]);
    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
    expect(await session.popItem()).toBeUndefined();
  });

  it('compacts the stored items once they cross the trigger, keeping the task and every call answered', async () => {
    const session = new CompactionSession({ strategy: createSlidingWindow(), budget });
    const history = readingHistory(4);
    const before = structuredClone(history);
    await session.addItems(history);

    const items = await session.getItems();

    expect(history).toEqual(before);
    expect(items[0]).toEqual(history[0]);
    expect(items.length).toBeLessThan(history.length);
    const calls = items.flatMap((item) => (item.type === 'function_call' ? [item.callId] : []));
    const results = items.flatMap((item) => (item.type === 'function_call_result' ? [item.callId] : []));
    expect(results).toEqual(calls);
    expect(session.storedItems()).toEqual(items);
  });

  it('gives back a shortened text output in the shape it came in', async () => {
    const session = new CompactionSession({
      strategy: createToolResultTruncation({ keepRecent: 1 }),
      budget,
    });
    const history = readingHistory(4);
    await session.addItems(history);

    const items = await session.getItems();

    const outputs = items.flatMap((item) => (item.type === 'function_call_result' ? [item.output] : []));
    expect(outputs).toHaveLength(4);
    for (const output of outputs) expect(output).toEqual({ type: 'text', text: expect.any(String) });
    const texts = outputs.map((output) => (output as { text: string }).text);
    expect(texts.at(-1)).toBe(fileText('module-3.ts'));
    expect(texts[0]!.length).toBeLessThan(fileText('module-0.ts').length);
  });

  it('reuses a compaction made inside a run when the next run reads the history', async () => {
    const session = new CompactionSession({ strategy: createSlidingWindow(), budget });
    const events: CompactionEvent[] = [];
    session.compactor.on('end', (event) => events.push(event));
    const model = recordingModel();
    const history = readingHistory(4);
    await session.wrapModel(model).getResponse({ input: history } as ModelRequest);
    expect(events).toHaveLength(1);
    const sent = model.requests[0]!.input as AgentInputItem[];
    expect(sent.length).toBeLessThan(history.length);

    // The runner saves the run's items as they were; the next run gets the compacted ones, not compacted again.
    await session.addItems(history);
    expect(await session.getItems()).toEqual(sent);
    expect(events).toHaveLength(1);
  });

  it('anchors the next count on the input tokens a response reported', async () => {
    const session = new CompactionSession({ strategy: createSlidingWindow(), budget });
    const history = readingHistory(1);
    await session.wrapModel(recordingModel(1_234)).getResponse({ input: history } as ModelRequest);

    // The same items again (as the next call of a run sends them, with more after) count what was reported.
    const { messages } = session.current(structuredClone(history));
    expect(session.compactor.check(messages).tokens).toBe(1_234);
  });

  it('sends a string input, and a request that continues stored context, as they are', async () => {
    const session = new CompactionSession({ strategy: createSlidingWindow(), budget });
    const model = recordingModel();
    const wrapped = session.wrapModel(model);
    const history = readingHistory(4);
    await wrapped.getResponse({ input: 'hello' } as ModelRequest);
    await wrapped.getResponse({ input: history, previousResponseId: 'resp_1' } as ModelRequest);
    expect(model.requests.map((request) => request.input)).toEqual(['hello', history]);
  });
});

describe('createCompactionSession', () => {
  it('resolves strategies by name through the registry', async () => {
    const session = await createCompactionSession({
      strategy: ['tool-result-truncation', { name: 'sliding-window' }],
      budget,
    });
    await session.addItems(readingHistory(4));
    const events: CompactionEvent[] = [];
    session.compactor.on('end', (event) => events.push(event));
    await session.getItems();
    expect(events.map((event) => event.strategy)).toEqual(['pipeline']);
  });

  it('names the package to install for a strategy it cannot find', async () => {
    await expect(createCompactionSession({ strategy: 'no-such-strategy', budget })).rejects.toThrow(
      /@compaction\/strategy-no-such-strategy/,
    );
  });
});

describe('compactionRecallTool', () => {
  it('answers a handle it does not know with what to ask instead', async () => {
    const recall = compactionRecallTool({ store: new InMemoryCompactionStore(), sessionId: 'task-7' });
    expect(recall.name).toBe('recall');
    const answer = await recall.invoke(new RunContext(), JSON.stringify({ handle: 'a1b2c3' }));
    expect(answer).toMatch(/^No archived text "a1b2c3" in this conversation/);
  });
});
