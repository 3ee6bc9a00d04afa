import { describe, expect, it } from 'vitest';
import { collapseMiddle } from '../__fixtures__/collapse-middle.js';
import { conversation } from '../__fixtures__/messages.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { Message } from '../messages/message.js';
import type { CountTokensRequest, Provider, TokenCount } from '../specs/provider-v1.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import type { CompactorEvents } from './compaction-event.js';
import { createCompactor } from './compactor.js';

const history = conversation(40, 400);
const estimate = createTokenCounter().estimate(history);
const budget = {
  contextWindow: Math.ceil(estimate * 4),
  reservedOutputTokens: 0,
  safetyMargin: 0,
  trigger: 0.5,
  target: 0.1,
};

/** A provider whose `countTokens` answers `answer(messages)` and remembers what it was asked. */
function countingProvider(answer: (messages: Message[]) => TokenCount | Promise<TokenCount>) {
  const requests: CountTokensRequest[] = [];
  const provider: Provider = {
    specificationVersion: 'v1',
    name: 'counting',
    modelId: 'counting-model',
    modelLimits: () => ({ contextWindow: budget.contextWindow, maxOutputTokens: 1000 }),
    generate: () => Promise.reject(new Error('not used')),
    async countTokens(request) {
      requests.push(request);
      return answer(request.messages);
    },
  };
  return { provider, requests };
}

describe("Compactor with countTokens: 'provider'", () => {
  it('decides on the provider count, one call per prepare, anchored for the counts after it', async () => {
    // The estimate is well under the trigger; the provider says the history is three times the estimate.
    const exact = estimate * 3;
    const { provider, requests } = countingProvider(() => ({
      tokens: exact,
      accuracy: 'exact',
      source: 'test',
    }));
    const compactor = createCompactor({
      strategy: collapseMiddle(),
      budget,
      provider,
      countTokens: 'provider',
    });
    const result = await compactor.prepare(history);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.messages).toEqual(history);
    expect(result.compacted).toBe(true);
    // The counter is anchored on the exact count: the same history now counts what the provider said.
    expect(compactor.check(history).tokens).toBe(exact);
  });

  it('asks again only for a history that recorded usage does not cover whole', async () => {
    const { provider, requests } = countingProvider((messages) => ({
      tokens: messages.length * 10,
      accuracy: 'exact',
      source: 'test',
    }));
    const compactor = createCompactor({
      strategy: collapseMiddle(),
      budget,
      provider,
      countTokens: 'provider',
    });
    const opening = history.slice(0, 2);
    await compactor.prepare(opening);
    // The count of the same history is anchored: a second call would only repeat it.
    await compactor.prepare(opening);
    expect(requests).toHaveLength(1);
    // Usage the application records covers its history too.
    const longer = history.slice(0, 3);
    compactor.recordUsage({ messages: longer, inputTokens: 30 });
    await compactor.prepare(longer);
    expect(requests).toHaveLength(1);
    // A message appended since is not covered: one more call.
    await compactor.prepare(history.slice(0, 4));
    expect(requests).toHaveLength(2);
  });

  it('leaves the decision to the estimate when the provider only estimated', async () => {
    const { provider, requests } = countingProvider(() => ({
      tokens: estimate * 3,
      accuracy: 'estimated',
      source: 'test',
    }));
    const compactor = createCompactor({
      strategy: collapseMiddle(),
      budget,
      provider,
      countTokens: 'provider',
    });
    const result = await compactor.prepare(history);
    expect(requests).toHaveLength(1);
    expect(result.compacted).toBe(false);
    expect(result.skipped).toBe('under-trigger');
  });

  it('reports a failed count as an error event with the source count, and the estimate decides', async () => {
    const { provider } = countingProvider(() => Promise.reject(new Error('count_tokens is down')));
    const compactor = createCompactor({
      strategy: collapseMiddle(),
      budget,
      provider,
      countTokens: 'provider',
    });
    const errors: CompactorEvents['error'][] = [];
    compactor.on('error', (event) => errors.push(event));
    const result = await compactor.prepare(history, { sessionId: 's' });
    expect(result.compacted).toBe(false);
    expect(errors).toMatchObject([{ sessionId: 's', trigger: 'auto', source: 'count' }]);
    expect((errors[0]!.error as Error).message).toBe('count_tokens is down');
  });

  it('does not call the provider by default', async () => {
    const { provider, requests } = countingProvider(() => ({ tokens: 1, accuracy: 'exact', source: 'test' }));
    await createCompactor({ strategy: collapseMiddle(), budget, provider }).prepare(history);
    expect(requests).toHaveLength(0);
  });

  it('rejects counting with a provider that cannot count, or an unknown mode', () => {
    const { countTokens: _countTokens, ...provider } = countingProvider(() => ({
      tokens: 1,
      accuracy: 'exact',
      source: 'test',
    })).provider;
    expect(() =>
      createCompactor({ strategy: collapseMiddle(), budget, provider, countTokens: 'provider' }),
    ).toThrow(InvalidOptionsError);
    expect(() =>
      createCompactor({ strategy: collapseMiddle(), budget, countTokens: 'exact' as 'provider' }),
    ).toThrow(/countTokens: must be "estimate", or "provider" with a provider that counts/);
  });
});
