import {
  BudgetUnreachableError,
  type CompactionStrategy,
  ContextOverflowError,
  createCompactor,
  createTokenCounter,
  type Message,
} from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { keepEnds } from './__fixtures__/keep-ends.js';
import { conversation } from './__fixtures__/messages.js';
import { callWithCompaction } from './call-with-compaction.js';
import { maximumOverflowRetries, retryCut, statedSizeBound } from './overflow-policy.js';
import { OverflowRetriesExhaustedError } from './overflow-retries-exhausted-error.js';

/** A refusal as a fake SDK throws it, with the provider's figures when the test gives them. */
class Refusal extends Error {
  constructor(readonly requestTokens?: number) {
    super(requestTokens === undefined ? 'prompt is too long' : `prompt is too long: ${requestTokens} tokens`);
  }
}

const parseContextOverflow = (error: unknown) =>
  error instanceof Refusal
    ? {
        message: error.message,
        ...(error.requestTokens === undefined ? {} : { requestTokens: error.requestTokens }),
      }
    : undefined;

const history = conversation(30, 400);
const historyTokens = createTokenCounter().estimate(history);

/**
 * Keeps the system prompt, the task, the newest half of the tool turns and the last request: every compaction
 * makes progress, as a strategy must for a retry to be cut harder than the one before.
 */
const halving: CompactionStrategy = {
  specificationVersion: 'v1',
  name: 'halving',
  async compact({ messages }) {
    const turns = messages.slice(2, -1);
    const kept = turns.slice(turns.length - 2 * Math.floor(turns.length / 4));
    return { messages: [...messages.slice(0, 2), ...kept, messages.at(-1)!] };
  },
};

/** A compactor over `base` (keep-ends by default) that records the limit each compaction was given. */
function setup(budget: { trigger?: number | false; contextWindow?: number } = {}, base = keepEnds()) {
  const limits: number[] = [];
  const strategy: CompactionStrategy = {
    ...base,
    compact(input) {
      limits.push(input.budget.limit);
      return base.compact(input);
    },
  };
  const compactor = createCompactor({
    strategy,
    counter: createTokenCounter(),
    budget: {
      contextWindow: Math.ceil(historyTokens * 2),
      reservedOutputTokens: 0,
      safetyMargin: 0,
      target: 0.1,
      trigger: false,
      ...budget,
    },
  });
  return { compactor, limits };
}

/** A `send` that plays a script: an error is thrown, a number is an answer reporting that many input tokens. */
function scripted(script: Array<Error | number>) {
  const sent: Message[][] = [];
  const send = async (messages: Message[]) => {
    sent.push(messages);
    const next = script[sent.length - 1];
    if (next === undefined) throw new Error('the script ran out');
    if (next instanceof Error) throw next;
    return { inputTokens: next };
  };
  return { send, sent };
}

describe('callWithCompaction', () => {
  it('compacts before the first request when the history is over the trigger', async () => {
    const { compactor } = setup({ trigger: 0.3 });
    const { send, sent } = scripted([120]);
    const heard: number[] = [];
    const call = await callWithCompaction({
      compactor,
      messages: history,
      send,
      inputTokens: (result) => result.inputTokens,
      onCompaction: (_result, attempt) => {
        heard.push(attempt);
        return undefined;
      },
    });
    expect(heard).toEqual([0]);
    expect(call.attempts).toBe(1);
    expect(sent[0]!.length).toBeLessThan(history.length);
    expect(call.compactions.map((result) => result.event?.trigger)).toEqual(['auto']);
    expect(history).toEqual(conversation(30, 400));
  });

  it('sizes the cut after a refusal by the tokens the provider stated', async () => {
    const { compactor, limits } = setup();
    const counted = compactor.counter.count(history);
    const { send, sent } = scripted([new Refusal(counted * 3), 50]);
    const call = await callWithCompaction({ compactor, messages: history, send, parseContextOverflow });
    expect(call.attempts).toBe(2);
    // The provider counted three times what the compactor did: a third of the limit is left.
    expect(limits).toEqual([Math.floor(compactor.budget.limit * (counted / (counted * 3)))]);
    expect(call.compactions.map((result) => result.event?.trigger)).toEqual(['overflow']);
    expect(sent[1]).toBe(call.messages);
  });

  it('takes a stated size far above the count for a misreading, and cuts as if it were the bound', async () => {
    const { compactor, limits } = setup();
    const counted = compactor.counter.count(history);
    const { send } = scripted([new Refusal(counted * 100), 50]);
    await callWithCompaction({ compactor, messages: history, send, parseContextOverflow });
    expect(limits).toEqual([Math.floor(compactor.budget.limit / statedSizeBound)]);
  });

  it('never cuts less for a stated size than for a refusal without one', async () => {
    const stated = setup();
    const unstated = setup();
    const counted = stated.compactor.counter.count(history);
    // Under the window: the provider refused it all the same, so it was over the window by its count.
    const under = stated.compactor.budget.contextWindow - 10;
    await callWithCompaction({
      compactor: stated.compactor,
      messages: history,
      send: scripted([new Refusal(under), 1]).send,
      parseContextOverflow,
    });
    await callWithCompaction({
      compactor: unstated.compactor,
      messages: history,
      send: scripted([new Refusal(), 1]).send,
      parseContextOverflow,
    });
    expect(stated.limits).toEqual(unstated.limits);
    expect(stated.limits[0]).toBeLessThan(counted);
  });

  it('takes a refusal without figures as one token over the window, and cuts harder on each retry', async () => {
    const { compactor, limits } = setup({}, halving);
    const counted = compactor.counter.count(history);
    const errors: ContextOverflowError[] = [];
    const { send } = scripted([new Refusal(), new Refusal(), 10]);
    const call = await callWithCompaction({
      compactor,
      messages: history,
      send,
      parseContextOverflow,
      onOverflow: (error) => errors.push(error),
    });
    expect(call.attempts).toBe(3);
    expect(errors[0]!.requestTokens).toBe(Math.max(compactor.budget.contextWindow, counted) + 1);
    expect(limits).toHaveLength(2);
    expect(limits[1]).toBeLessThanOrEqual(Math.floor(compactor.budget.limit * retryCut));
  });

  it('throws what it tried when every retry is refused', async () => {
    const { compactor } = setup({}, halving);
    const refusals = Array.from({ length: maximumOverflowRetries + 1 }, () => new Refusal());
    const { send, sent } = scripted(refusals);
    const failure = await callWithCompaction({
      compactor,
      messages: history,
      send,
      parseContextOverflow,
      provider: 'test',
    }).catch((error: unknown) => error);
    expect(OverflowRetriesExhaustedError.isInstance(failure)).toBe(true);
    expect(ContextOverflowError.isInstance(failure)).toBe(true);
    const exhausted = failure as OverflowRetriesExhaustedError;
    expect(exhausted).toMatchObject({ code: 'agent-loop/overflow-retries-exhausted', provider: 'test' });
    expect(exhausted.attempts.map((attempt) => attempt.messages)).toEqual(
      sent.map((messages) => messages.length),
    );
    expect(exhausted.cause).toBe(refusals.at(-1));
  });

  it('throws the refusal, typed, when no shorter cut is found', async () => {
    const { compactor } = setup();
    const { send, sent } = scripted([new Refusal(), new Refusal(900_000)]);
    const failure = await callWithCompaction({
      compactor,
      messages: history,
      send,
      parseContextOverflow,
    }).catch((error: unknown) => error);
    expect(sent).toHaveLength(2);
    expect(failure).toMatchObject({ requestTokens: 900_000, attempts: [{ attempt: 1 }, { attempt: 2 }] });
    expect(OverflowRetriesExhaustedError.isInstance(failure)).toBe(true);
  });

  it("throws the Compactor's error when the first cut cannot get under the limit", async () => {
    const { compactor } = setup({ contextWindow: 20 });
    const { send, sent } = scripted([new Refusal(), 5]);
    const failure = await callWithCompaction({
      compactor,
      messages: history,
      send,
      parseContextOverflow,
    }).catch((error: unknown) => error);
    expect(BudgetUnreachableError.isInstance(failure)).toBe(true);
    expect(sent).toHaveLength(1);
  });

  it('records usage against the messages the answer was sent, not the history it was given', async () => {
    const { compactor } = setup();
    const recordUsage = vi.spyOn(compactor, 'recordUsage');
    const { send, sent } = scripted([new Refusal(), 77]);
    await callWithCompaction({
      compactor,
      messages: history,
      send,
      parseContextOverflow,
      inputTokens: (result) => result.inputTokens,
    });
    expect(recordUsage).toHaveBeenCalledTimes(1);
    expect(recordUsage.mock.calls[0]![0]).toEqual({ messages: sent[1], inputTokens: 77 });
    expect(recordUsage.mock.calls[0]![0].messages).not.toHaveLength(history.length);
  });

  it('records usage a stream reports later, once it arrives', async () => {
    const { compactor } = setup();
    const recordUsage = vi.spyOn(compactor, 'recordUsage');
    let report!: (tokens: number) => void;
    const usage = new Promise<number>((resolve) => {
      report = resolve;
    });
    const call = await callWithCompaction({
      compactor,
      messages: history,
      send: async () => 'stream',
      inputTokens: () => usage,
    });
    expect(recordUsage).not.toHaveBeenCalled();
    report(42);
    await usage;
    expect(recordUsage).toHaveBeenCalledWith({ messages: call.messages, inputTokens: 42 });
  });

  it('throws other errors and refusals after an abort unchanged, without compacting', async () => {
    const { compactor } = setup();
    const down = new Error('server down');
    await expect(
      callWithCompaction({ compactor, messages: history, send: scripted([down]).send, parseContextOverflow }),
    ).rejects.toBe(down);
    const controller = new AbortController();
    controller.abort();
    const refusal = new Refusal(1_000);
    const { send, sent } = scripted([refusal]);
    await expect(
      callWithCompaction({
        compactor,
        messages: history,
        send,
        parseContextOverflow,
        signal: controller.signal,
        prepare: false,
      }),
    ).rejects.toBe(refusal);
    expect(sent).toHaveLength(1);
  });

  it('sends at most one request more than the retries, whatever the refusals', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: undefined }), { maxLength: 5 }),
        async (figures) => {
          const { compactor } = setup();
          const { send, sent } = scripted([...figures.map((tokens) => new Refusal(tokens)), 5]);
          const outcome = await callWithCompaction({
            compactor,
            messages: history,
            send,
            parseContextOverflow,
          }).catch((error: unknown) => error);
          expect(sent.length).toBeLessThanOrEqual(maximumOverflowRetries + 1);
          if (BudgetUnreachableError.isInstance(outcome)) {
            // Only the first cut reports the Compactor's own failure.
            expect(sent).toHaveLength(1);
          } else if (OverflowRetriesExhaustedError.isInstance(outcome)) {
            expect(outcome.attempts).toHaveLength(sent.length);
          } else {
            expect(figures.length).toBeLessThanOrEqual(maximumOverflowRetries);
            expect(outcome).toMatchObject({ attempts: figures.length + 1, result: { inputTokens: 5 } });
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
