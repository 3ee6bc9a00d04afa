import { createTokenCounter, type Message, textOf, verifyCompaction } from '@compaction/core';
import { isSummary } from '@compaction/strategy-kit';
import { deepFreeze, generateCodingHistory } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sdkHarnesses } from './__fixtures__/sdk-harnesses.js';
import { wellFormedSummary } from './__fixtures__/summaries.js';
import { createSummarization } from './create-summarization.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

// One history for both SDKs; the counter memoizes per message, so it is counted once.
const history: Message[] = deepFreeze(generateCodingHistory());
const counter = createTokenCounter();
const summarizerWindow = 32_000;
const summarizerOutput = 4096;

describe.each(sdkHarnesses)('a history of about a million tokens, through the real $name SDK', (harness) => {
  it(`is summarized in requests that each fit a ${summarizerWindow}-token summarizer window`, {
    timeout: 30_000,
  }, async () => {
    const total = counter.estimate(history);
    expect(total).toBeGreaterThan(800_000);
    let call = 0;
    // Each chunk's summary is distinct, so the next request can be checked for carrying it forward.
    server.handle(harness.path, () => harness.success(wellFormedSummary(`chunk ${++call}`)));
    const provider = harness.createProvider(server, {
      maxRetries: 0,
      timeout: 5000,
      limits: { contextWindow: summarizerWindow, maxOutputTokens: summarizerOutput },
    });
    const goal = Math.floor(total * 0.1);
    const output = await createSummarization({ provider }).compact({
      messages: history,
      counter,
      budget: { limit: goal, target: goal },
      trigger: 'auto',
      round: 1,
    });

    expect(output.details).not.toHaveProperty('fallback');
    const requests = server.requests;
    expect(requests.length).toBeGreaterThan(1);
    expect(output.details).toMatchObject({ summarizerCalls: requests.length, chunks: requests.length });

    // What the server received, read back as messages and counted independently of the strategy.
    const requestCounter = createTokenCounter();
    for (const [index, request] of requests.entries()) {
      expect(harness.requestIssues(request.body)).toEqual([]);
      const view = harness.view(request.body);
      expect(view.turns).toHaveLength(1);
      const maxTokens = view.maxTokens as number;
      expect(maxTokens).toBeLessThanOrEqual(summarizerOutput);
      const inputTokens = requestCounter.estimate(harness.messagesOf(request.body));
      expect(inputTokens + maxTokens).toBeLessThanOrEqual(summarizerWindow);
      if (index > 0) expect(view.turns[0]!.text).toContain(wellFormedSummary(`chunk ${index}`));
    }

    // The result holds the last chunk's summary and stays at or under the target.
    expect(verifyCompaction({ before: history, after: output.messages, counter, limit: goal })).toEqual([]);
    expect(counter.estimate(output.messages)).toBeLessThanOrEqual(goal);
    const summaries = output.messages.filter(isSummary);
    expect(summaries).toHaveLength(1);
    expect(textOf(summaries[0]!)).toContain(wellFormedSummary(`chunk ${requests.length}`));
  });
});
