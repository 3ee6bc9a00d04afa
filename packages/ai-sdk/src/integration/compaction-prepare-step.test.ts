import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type CompactionEvent, createCompactor } from '@compaction/core';
import { generateText, type ModelMessage, stepCountIs, streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChatCompletionsServer,
  requestProblems,
  startChatCompletionsServer,
} from '../__fixtures__/chat-completions-server.js';
import { freezeMessages } from '../__fixtures__/freeze-messages.js';
import {
  budget,
  createStrategy,
  expectedCompactionSteps,
  fileText,
  openingMessages,
  stepAnswer,
  toolSteps,
  tools,
} from '../__fixtures__/long-conversation.js';
import { fromAiSdk } from '../convert/ai-sdk-messages.js';
import { compactionPrepareStep } from './compaction-prepare-step.js';

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs the scripted conversation with `prepareStep`, recording at which steps compaction happened. */
async function run(mode: 'generate' | 'stream') {
  server = await startChatCompletionsServer((_request, index) => stepAnswer(index));
  const provider = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, includeUsage: true });
  const prepareStep = compactionPrepareStep({ strategy: createStrategy(), budget });
  const events: CompactionEvent[] = [];
  prepareStep.compactor.on('end', (event) => events.push(event));
  const compactedAt: number[] = [];
  const messages = freezeMessages(openingMessages());
  const settings = {
    model: provider('local-model'),
    tools,
    messages,
    allowSystemInMessages: true,
    maxRetries: 0,
    stopWhen: stepCountIs(toolSteps + 1),
    prepareStep: async (options: Parameters<typeof prepareStep>[0] & { stepNumber: number }) => {
      const before = events.length;
      const prepared = await prepareStep(options);
      if (events.length > before) compactedAt.push(options.stepNumber);
      return prepared;
    },
  };
  let text: string;
  let responseMessages: ModelMessage[];
  if (mode === 'generate') {
    const result = await generateText(settings);
    text = result.text;
    responseMessages = result.response.messages;
  } else {
    const result = streamText(settings);
    text = await result.text;
    responseMessages = (await result.response).messages;
  }
  return { server, prepareStep, events, compactedAt, messages, text, responseMessages };
}

describe.each(['generate', 'stream'] as const)('compactionPrepareStep with %sText', (mode) => {
  it('compacts at the steps where the history crosses the trigger, and every request stays valid', async () => {
    const { server, prepareStep, events, compactedAt, messages, text, responseMessages } = await run(mode);
    const { trigger, limit, target } = prepareStep.compactor.budget;
    const requests = server.requests;

    expect(text).toBe('All modules compute values.');
    expect(requests).toHaveLength(toolSteps + 1);
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const event of events) {
      expect(event.trigger).toBe('auto');
      expect(event.tokensBefore).toBeGreaterThan(trigger!);
      expect(event.tokensAfter).toBeLessThanOrEqual(target);
    }

    // The right steps: the previous request's reported tokens plus the messages added since, over the trigger.
    const added = [
      [],
      ...Array.from({ length: toolSteps }, (_, step) =>
        fromAiSdk(responseMessages.slice(2 * step, 2 * step + 2)),
      ),
    ];
    const expected = expectedCompactionSteps({
      reportedTokens: requests.map((request) => request.promptTokens),
      addedMessages: added,
      counter: prepareStep.compactor.counter,
      trigger: trigger!,
    });
    expect(compactedAt).toEqual(expected);

    // What the server saw: the request shrinks exactly at those steps and grows otherwise.
    for (let step = 1; step < requests.length; step++) {
      const [previous, current] = [requests[step - 1]!.size, requests[step]!.size];
      if (compactedAt.includes(step)) expect(current, `step ${step}`).toBeLessThan(previous);
      else expect(current, `step ${step}`).toBeGreaterThan(previous);
    }
    for (const [index, request] of requests.entries()) {
      expect(requestProblems(request.body.messages), `request ${index}`).toEqual([]);
      expect(request.promptTokens, `request ${index}`).toBeLessThanOrEqual(limit);
      // Compaction's own fields never reach the provider.
      expect(JSON.stringify(request.body)).not.toContain('"compaction":');
    }
    // The system prompt and the task are kept; the newest tool result is sent whole.
    const last = requests.at(-1)!.body.messages;
    expect(last[0]).toEqual({
      role: 'system',
      content: 'You are a coding agent. Read the modules one by one, then report.',
    });
    expect(last[1]).toEqual({
      role: 'user',
      content: 'Read every module of the repository and tell me what they compute.',
    });
    expect(last.at(-1)!.content).toContain(`line 149 of src/module-${toolSteps - 1}.ts`);

    // The caller's messages are untouched (frozen, and equal to a fresh copy).
    expect(messages).toEqual(openingMessages());
    // The full history stays available to the caller.
    expect(responseMessages).toHaveLength(2 * toolSteps + 1);
  });
});

/** A conversation of eight large tool results, over the trigger. */
function longHistory(task: string): ModelMessage[] {
  const history: ModelMessage[] = [{ role: 'user', content: task }];
  for (let step = 0; step < 8; step++) {
    history.push(
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: `c${step}`, toolName: 'read_file', input: { path: `f${step}` } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `c${step}`,
            toolName: 'read_file',
            output: { type: 'text', value: fileText(`${task} f${step}`) },
          },
        ],
      },
    );
  }
  return history;
}

describe('compactionPrepareStep', () => {
  it('returns nothing while the history is under the trigger', async () => {
    const prepareStep = compactionPrepareStep({
      compactor: createCompactor({ strategy: createStrategy(), budget }),
    });
    const result = await prepareStep({ messages: openingMessages(), steps: [] });
    expect(result).toEqual({});
  });

  it('accepts a compactor and re-applies its compaction to later calls of the same conversation', async () => {
    const compactor = createCompactor({ strategy: createStrategy(), budget });
    const prepareStep = compactionPrepareStep(compactor);
    const history = longHistory('Read every module.');
    const first = await prepareStep({ messages: history, steps: [] });
    expect(first.messages).toBeDefined();
    const events: CompactionEvent[] = [];
    compactor.on('end', (event) => events.push(event));
    // The next call (a new generateText call with the full history plus a new user message) reuses it.
    const second = await prepareStep({
      messages: [...history, { role: 'user', content: 'Go on.' }],
      steps: [],
    });
    expect(events).toHaveLength(0);
    expect(second.messages!.slice(0, -1)).toEqual(first.messages);
    expect(second.messages!.at(-1)).toEqual({ role: 'user', content: 'Go on.' });
  });

  it('keeps conversations that share one prepareStep function apart', async () => {
    const prepareStep = compactionPrepareStep({ strategy: createStrategy(), budget });
    const long = freezeMessages(longHistory('Task A'));
    const short: ModelMessage[] = [{ role: 'user', content: 'Task B' }];
    const first = await prepareStep({ messages: long, steps: [] });
    expect(first.messages).toBeDefined();
    expect(await prepareStep({ messages: short, steps: [] })).toEqual({});
    const again = await prepareStep({ messages: long, steps: [] });
    expect(again.messages).toEqual(first.messages);
    // The returned messages are the same objects as before: unchanged messages keep their identity.
    expect(again.messages!.every((message, index) => message === first.messages![index])).toBe(true);
    expect(long).toEqual(longHistory('Task A'));
  });
});
