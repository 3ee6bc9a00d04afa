import {
  ContextOverflowError,
  createCompactor,
  createTokenCounter,
  type Message,
  type ToolMessage,
} from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { keepEnds } from './__fixtures__/keep-ends.js';
import { assistant, calls, conversation, user } from './__fixtures__/messages.js';
import { ConversationLoop } from './conversation-loop.js';

/** A refusal as a fake SDK throws it: `too long` with the numbers when the test gives them. */
class Refusal extends Error {
  constructor(readonly requestTokens?: number) {
    super(requestTokens === undefined ? 'too long' : `too long: ${requestTokens} > 100`);
  }
}

const parseContextOverflow = (error: unknown) =>
  error instanceof Refusal
    ? {
        message: error.message,
        ...(error.requestTokens === undefined
          ? {}
          : { requestTokens: error.requestTokens, maximumTokens: 100 }),
      }
    : undefined;

const toCompactionError = (error: unknown) => {
  const overflow = parseContextOverflow(error);
  return overflow === undefined
    ? new Error('mapped')
    : new ContextOverflowError({ provider: 'test', cause: error, ...overflow });
};

const history = conversation(30, 400);
const historyTokens = createTokenCounter().estimate(history);

function loop(budget: { trigger?: number | false } = {}) {
  const compactor = createCompactor({
    strategy: keepEnds(),
    counter: createTokenCounter(),
    budget: {
      contextWindow: Math.ceil(historyTokens * 2),
      reservedOutputTokens: 0,
      safetyMargin: 0,
      target: 0.1,
      ...budget,
    },
  });
  return new ConversationLoop<Message[], string>({
    compactor,
    sessionId: 'session',
    parseContextOverflow,
    toCompactionError,
  });
}

/** A call whose `send` answers from a list: a value is a reply, an error is thrown. */
function scripted(target: ConversationLoop<Message[], string>, replies: Array<string | Error>) {
  const bodies: Message[][] = [];
  const accepted: string[] = [];
  const call = {
    body: (messages: Message[]) => messages,
    send: async (body: Message[]) => {
      bodies.push(body);
      const reply = replies.shift();
      if (reply instanceof Error) throw reply;
      return { response: reply ?? 'done', inputTokens: 1000 };
    },
    accept: (exchange: { response: string }) => {
      accepted.push(exchange.response);
      target.append([assistant(exchange.response)]);
    },
  };
  return { call, bodies, accepted };
}

describe('ConversationLoop.append', () => {
  it('names tool results after their call wherever it is, and keeps complete messages as they are', () => {
    const target = loop();
    const question = user('run it');
    target.append([question, calls('call_a')]);
    const unnamed: ToolMessage = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'call_a', toolName: '', output: 'ok' }],
    };
    const [named] = target.append([unnamed]);
    expect(named).not.toBe(unnamed);
    expect((named as ToolMessage).content[0]!.toolName).toBe('bash');
    expect(unnamed.content[0]!.toolName).toBe('');
    expect(target.history[0]).toBe(question);
    expect(target.history).toEqual(target.context);
    expect(target.history).toHaveLength(3);
  });
});

describe('ConversationLoop.exchange', () => {
  it('sends the working context, records the usage, lets the adapter add the answer, then emits', async () => {
    const target = loop({ trigger: false });
    target.append(history);
    const events: string[] = [];
    target.on('request', ({ step, attempt }) => events.push(`request ${step}.${attempt}`));
    target.on('response', ({ step, inputTokens }) => {
      events.push(`response ${step} ${inputTokens} after ${target.history.length} messages`);
    });
    const { call, bodies, accepted } = scripted(target, ['answer']);
    const exchange = await target.exchange(call);
    expect(exchange.response).toBe('answer');
    expect(accepted).toEqual(['answer']);
    expect(bodies).toEqual([history]);
    expect(events).toEqual(['request 1.1', `response 1 1000 after ${history.length + 1} messages`]);
    // The counter is anchored on the reported usage for what was sent.
    expect(target.compactor.counter.count(history)).toBe(1000);
    expect(target.compactions).toEqual([]);
  });

  it('compacts before the request when the trigger fires', async () => {
    const target = loop({ trigger: 0.4 });
    target.append(history);
    const steps: number[] = [];
    target.on('compaction', ({ step, event }) => {
      steps.push(step);
      expect(event.trigger).toBe('auto');
    });
    const { call, bodies } = scripted(target, ['answer']);
    await target.exchange(call);
    expect(steps).toEqual([1]);
    expect(bodies[0]!.length).toBeLessThan(history.length);
    expect(target.history).toHaveLength(history.length + 1);
    expect(target.compactions).toHaveLength(1);
  });

  it('compacts with the overflow trigger after a refusal and retries', async () => {
    const target = loop({ trigger: false });
    target.append(history);
    const overflows: ContextOverflowError[] = [];
    const attempts: number[] = [];
    target.on('overflow', ({ error }) => overflows.push(error));
    target.on('request', ({ attempt }) => attempts.push(attempt));
    const { call, bodies } = scripted(target, [new Refusal(), 'answer']);
    expect((await target.exchange(call)).response).toBe('answer');
    expect(attempts).toEqual([1, 2]);
    expect(bodies[1]!.length).toBeLessThan(history.length);
    expect(target.compactions.map((event) => event.trigger)).toEqual(['overflow']);
    // A refusal without numbers is taken as one token over the window (or the count, when larger).
    expect(overflows[0]!.requestTokens).toBe(
      Math.max(target.compactor.budget.contextWindow, createTokenCounter().estimate(history)) + 1,
    );
  });

  it('keeps the numbers a refusal gives', async () => {
    const target = loop({ trigger: false });
    target.append(history);
    const overflows: ContextOverflowError[] = [];
    target.on('overflow', ({ error }) => overflows.push(error));
    const { call } = scripted(target, [new Refusal(500), 'answer']);
    await target.exchange(call);
    expect(overflows[0]).toMatchObject({ requestTokens: 500, maximumTokens: 100 });
  });

  it('throws a refusal it cannot get past as a ContextOverflowError, and other errors unchanged', async () => {
    const twice = loop({ trigger: false });
    twice.append(history);
    const second = twice.exchange(scripted(twice, [new Refusal(), new Refusal(400)]).call);
    await expect(second).rejects.toSatisfy(ContextOverflowError.isInstance);
    await expect(second).rejects.toMatchObject({ requestTokens: 400 });

    const other = loop({ trigger: false });
    other.append(history);
    const failure = new Error('server down');
    await expect(other.exchange(scripted(other, [failure]).call)).rejects.toBe(failure);
    expect(other.history).toHaveLength(history.length);
  });

  it('does not retry a refusal after the caller aborted', async () => {
    const target = loop({ trigger: false });
    target.append(history);
    const controller = new AbortController();
    const refusal = new Refusal();
    const { call, bodies } = scripted(target, [refusal, 'answer']);
    const exchange = target.exchange({
      ...call,
      signal: controller.signal,
      send: async (body) => {
        controller.abort();
        return call.send(body);
      },
    });
    await expect(exchange).rejects.toBe(refusal);
    expect(bodies).toHaveLength(1);
  });
});

describe('ConversationLoop.compact', () => {
  it('compacts the working context with the manual trigger and keeps the full history', async () => {
    const target = loop({ trigger: false });
    target.append(history);
    const result = await target.compact({ instructions: 'keep the test names' });
    expect(result.compacted).toBe(true);
    expect(result.event?.trigger).toBe('manual');
    expect(target.context.length).toBeLessThan(history.length);
    expect(target.history).toEqual(history);
    expect(target.compactions).toEqual([result.event]);
  });
});
