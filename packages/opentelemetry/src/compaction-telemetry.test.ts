import {
  type CompactionStrategy,
  ContextOverflowError,
  createCompactor,
  createPipeline,
  createTokenCounter,
} from '@compaction/core';
import { createSummarization } from '@compaction/strategy-summarization';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { codingConversation, createMockProvider } from '@compaction/testing';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { parentOf, type RecordedPoint, telemetrySdk } from './__fixtures__/telemetry-sdk.js';
import { compactionTelemetry } from './compaction-telemetry.js';

const counter = createTokenCounter();
// Tool results are most of it: truncation alone gets to about a fifth of it.
const history = codingConversation(20, 2000);
const historyTokens = counter.estimate(history);
const budget = {
  contextWindow: Math.ceil(historyTokens * 0.9),
  reservedOutputTokens: 0,
  safetyMargin: 0,
  trigger: 0.7,
  target: 0.3,
};

const sdks: ReturnType<typeof telemetrySdk>[] = [];
afterEach(async () => {
  await Promise.all(sdks.splice(0).map((sdk) => sdk.shutdown()));
});

async function observed() {
  const sdk = telemetrySdk();
  sdks.push(sdk);
  const { tracerProvider, meterProvider } = sdk;
  return { sdk, observer: await compactionTelemetry({ tracerProvider, meterProvider }) };
}

function named(spans: ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}

function childrenOf(spans: ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((span) => parentOf(span) === parent.spanContext().spanId);
}

function point(points: RecordedPoint[], name: string, attributes: Record<string, unknown> = {}) {
  return points.filter(
    (candidate) =>
      candidate.name === name &&
      Object.entries(attributes).every(([key, value]) => candidate.attributes[key] === value),
  );
}

describe('compactionTelemetry', () => {
  it('traces a pipeline: the compaction, its strategy, each stage and the summarizer call inside it', async () => {
    const { sdk, observer } = await observed();
    const usage = { inputTokens: 1234, outputTokens: 56 };
    const provider = createMockProvider({
      name: 'anthropic',
      modelId: 'claude-test',
      responses: [{ text: 'The agent read the files.', finishReason: 'stop', usage }],
    });
    const summarization = createSummarization({ provider, template: 'Summarize:\n{{conversation}}' });
    const strategy = createPipeline([createToolResultTruncation({ mode: 'mask' }), summarization]);
    // A target truncation alone cannot reach: the summarizer runs too.
    const deep = { ...budget, target: 0.12 };
    const compactor = createCompactor({ strategy, budget: deep, counter, observers: [observer] });
    const result = await compactor.compact(history, { sessionId: 'conversation-7' });
    const event = result.event!;
    const spans = sdk.spans();
    const [compaction] = named(spans, 'compaction.compact');
    expect(compaction?.attributes).toMatchObject({
      'compaction.session.id': 'conversation-7',
      'compaction.trigger': 'manual',
      'compaction.strategy': 'pipeline',
      'compaction.compacted': true,
      'compaction.round': 1,
      'compaction.fallback': false,
      'compaction.tokens.before': event.tokensBefore,
      'compaction.tokens.after': event.tokensAfter,
      'compaction.tokens.target': expect.any(Number),
      'compaction.messages.before': history.length,
      'compaction.messages.after': result.messages.length,
      'compaction.messages.removed': expect.any(Number),
      'compaction.archived.items': 0,
    });
    expect(parentOf(compaction!)).toBeUndefined();
    const [attempt] = childrenOf(spans, compaction!);
    expect(attempt).toMatchObject({ name: 'compaction.strategy' });
    expect(attempt?.attributes).toMatchObject({
      'compaction.strategy': 'pipeline',
      'compaction.fallback': false,
    });
    const stages = childrenOf(spans, attempt!);
    const ran = (event.details?.stages as { name: string }[] | undefined)?.map((stage) => stage.name);
    expect(ran).toEqual(['tool-result-truncation', 'summarization']);
    expect(stages.map((stage) => stage.attributes['compaction.stage'])).toEqual(ran);
    expect(stages.map((stage) => stage.attributes['compaction.stage.index'])).toEqual([0, 1]);
    const [call, ...others] = childrenOf(spans, stages[1]!);
    expect(others).toEqual([]);
    expect(call?.name).toBe('chat claude-test');
    expect(call?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.system': 'anthropic',
      'gen_ai.request.model': 'claude-test',
      'gen_ai.usage.input_tokens': 1234,
      'gen_ai.usage.output_tokens': 56,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    // One trace; every span ended inside its parent.
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);

    const points = await sdk.points();
    const labels = { 'compaction.strategy': 'pipeline', 'compaction.trigger': 'manual' };
    expect(
      point(points, 'compaction.compactions', { ...labels, 'compaction.outcome': 'compacted' }),
    ).toMatchObject([{ value: 1, unit: '{compaction}' }]);
    expect(point(points, 'compaction.tokens.saved', labels)).toMatchObject([
      { value: { count: 1, sum: event.tokensBefore - event.tokensAfter }, unit: '{token}' },
    ]);
    const [duration] = point(points, 'compaction.duration', labels);
    expect(duration?.unit).toBe('s');
    const seconds = duration?.value as { count: number; sum: number };
    expect(seconds.count).toBe(1);
    expect(seconds.sum).toBeGreaterThan(0);
    expect(seconds.sum).toBeLessThan(event.durationMs / 1000 + 1);
    expect(point(points, 'compaction.fallbacks')).toEqual([]);
    expect(point(points, 'compaction.overflow.retries')).toEqual([]);
  });

  it('traces prepare and recover around their compactions, and counts fallbacks, retries and failures', async () => {
    const { sdk, observer } = await observed();
    const failing: CompactionStrategy = {
      specificationVersion: 'v1',
      name: 'failing',
      compact: async () => {
        throw new TypeError('cannot read the history');
      },
    };
    const fallback = createToolResultTruncation({ mode: 'mask' });
    const compactor = createCompactor({
      strategy: failing,
      fallback,
      budget,
      counter,
      observers: [observer],
    });
    const prepared = await compactor.prepare(history, { sessionId: 'a' });
    expect(prepared.compacted).toBe(true);
    const overflow = new ContextOverflowError({ provider: 'openai', message: 'too long' });
    await compactor.recover(history, overflow, { sessionId: 'b' });
    const alone = createCompactor({ strategy: failing, budget, counter, observers: [observer] });
    await expect(alone.compact(history, { sessionId: 'c' })).rejects.toThrow();

    const spans = sdk.spans();
    const [prepare] = named(spans, 'compaction.prepare');
    const [recover] = named(spans, 'compaction.recover');
    expect(prepare?.attributes).toMatchObject({ 'compaction.session.id': 'a', 'compaction.compacted': true });
    expect(recover?.attributes).toMatchObject({ 'compaction.session.id': 'b', 'compaction.compacted': true });
    const [underPrepare] = childrenOf(spans, prepare!);
    const [underRecover] = childrenOf(spans, recover!);
    expect(underPrepare?.attributes).toMatchObject({
      'compaction.trigger': 'auto',
      'compaction.fallback': true,
    });
    expect(underRecover?.attributes).toMatchObject({ 'compaction.trigger': 'overflow' });
    const attempts = childrenOf(spans, underPrepare!);
    expect(attempts.map((span) => [span.attributes['compaction.strategy'], span.status.code])).toEqual([
      ['failing', 2],
      ['tool-result-truncation', 0],
    ]);
    expect(attempts[0]?.attributes['error.type']).toBe('TypeError');
    const failed = named(spans, 'compaction.compact').find(
      (span) => span.attributes['compaction.session.id'] === 'c',
    );
    expect(failed?.status).toEqual({ code: 2 });
    expect(failed?.attributes['error.type']).toBe('core/strategy-failed');

    const points = await sdk.points();
    const compactions = point(points, 'compaction.compactions');
    const byLabels = compactions.map((entry) => [
      entry.attributes['compaction.trigger'],
      entry.attributes['compaction.strategy'],
      entry.attributes['compaction.outcome'],
      entry.value,
    ]);
    expect(byLabels).toEqual(
      expect.arrayContaining([
        ['auto', 'tool-result-truncation', 'compacted', 1],
        ['overflow', 'tool-result-truncation', 'compacted', 1],
        ['manual', 'failing', 'failed', 1],
      ]),
    );
    expect(compactions).toHaveLength(3);
    expect(point(points, 'compaction.fallbacks').map((entry) => [entry.attributes, entry.value])).toEqual([
      [
        {
          'compaction.strategy': 'tool-result-truncation',
          'compaction.trigger': 'auto',
          'compaction.outcome': 'compacted',
        },
        1,
      ],
      [
        {
          'compaction.strategy': 'tool-result-truncation',
          'compaction.trigger': 'overflow',
          'compaction.outcome': 'compacted',
        },
        1,
      ],
    ]);
    expect(point(points, 'compaction.overflow.retries')).toMatchObject([
      {
        value: 1,
        attributes: { 'compaction.strategy': 'tool-result-truncation', 'compaction.trigger': 'overflow' },
      },
    ]);
    const durations = point(points, 'compaction.duration');
    expect(durations.reduce((sum, entry) => sum + (entry.value as { count: number }).count, 0)).toBe(3);
  });
});
