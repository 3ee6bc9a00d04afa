import { createFastEstimator, createStrategyRegistry, resolveCompactionConfig } from '@compaction/core';
import slidingWindow from '@compaction/strategy-sliding-window';
import toolResultTruncation from '@compaction/strategy-tool-result-truncation';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import OpenAI from 'openai';

/** What the Chat and Responses conversation tests share: the counter, a small window and a model id. */
export const estimator = createFastEstimator();
export const contextWindow = 16_000;
export const model = 'gpt-5.4';

/** A loopback server and a real OpenAI client pointed at it, without SDK retries. */
export async function startLoopbackOpenAI(): Promise<{ server: TestServer; client: OpenAI }> {
  const server = await startTestServer();
  const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
  return { server, client };
}

/** The conversations' compaction: tool-result truncation then sliding window, resolved from a JSON config. */
export async function compaction() {
  const registry = createStrategyRegistry({ definitions: [toolResultTruncation, slidingWindow] });
  const resolved = await resolveCompactionConfig(
    { strategy: ['tool-result-truncation', 'sliding-window'] },
    registry,
  );
  return { ...resolved, estimator, budget: { contextWindow } };
}
