import {
  type CompactionStrategy,
  ContextOverflowError,
  createCompactor,
  createPipeline,
  createTokenCounter,
  type Message,
} from '@compaction/core';
import { createSummarization } from '@compaction/strategy-summarization';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { codingConversation, createMockProvider } from '@compaction/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { telemetrySdk } from './__fixtures__/telemetry-sdk.js';
import { compactionTelemetry } from './compaction-telemetry.js';

const counter = createTokenCounter();

/** The history with `marker` in the task, a tool output and the newest request. */
function plantedHistory(marker: string): Message[] {
  const history = codingConversation(20, 2000);
  const plant = (message: Message): Message => {
    const content = message.content.map((part) => {
      if (part.type === 'text') return { ...part, text: `${part.text} ${marker}` };
      if (part.type === 'tool-result' && typeof part.output === 'string') {
        return { ...part, output: `${part.output}\n${marker}` };
      }
      return part;
    });
    return { ...message, content } as Message;
  };
  return history.map((message, index) =>
    index === 1 || index === 5 || index === history.length - 1 ? plant(message) : message,
  );
}

describe('compactionTelemetry privacy', () => {
  it('never puts message text, a key or an error message in a span, an event or a metric', async () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{20,40}$/);
    await fc.assert(
      fc.asyncProperty(secret, secret, async (key, marker) => {
        const sdk = telemetrySdk();
        const { tracerProvider, meterProvider } = sdk;
        const observer = await compactionTelemetry({ tracerProvider, meterProvider });
        const history = plantedHistory(`MARKER-${marker}`);
        const budget = {
          contextWindow: Math.ceil(counter.estimate(history) * 0.9),
          reservedOutputTokens: 0,
          target: 0.12,
        };
        // The summarizer refuses with the key in its message, then answers with the marker in its text.
        const provider = createMockProvider({
          responses: [new Error(`401 invalid x-api-key: sk-${key}`), `Summary mentioning MARKER-${marker}`],
        });
        const failing: CompactionStrategy = {
          specificationVersion: 'v1',
          name: 'failing',
          compact: async () => {
            throw new Error(`could not send sk-${key} with MARKER-${marker}`);
          },
        };
        const summarization = createSummarization({ provider, template: '{{conversation}}' });
        const fallback = createPipeline([createToolResultTruncation({ mode: 'mask' }), summarization]);
        const compactor = createCompactor({
          strategy: failing,
          fallback,
          budget,
          counter,
          observers: [observer],
        });
        await compactor.compact(history, { instructions: `keep sk-${key}` });
        await compactor.compact(history);
        const refusal = new ContextOverflowError({ provider: 'mock', message: `too long: MARKER-${marker}` });
        await compactor.recover(history, refusal).catch(() => undefined);
        const spans = sdk.spans().map((span) => ({
          name: span.name,
          attributes: span.attributes,
          events: span.events,
          status: span.status,
          links: span.links,
        }));
        const recorded = JSON.stringify({ spans, points: await sdk.points() });
        await sdk.shutdown();
        expect(spans.some((span) => span.name === 'chat mock-model' && span.status.code === 2)).toBe(true);
        expect(recorded).not.toContain(key);
        expect(recorded).not.toContain(marker);
      }),
      { numRuns: 10 },
    );
  });
});
