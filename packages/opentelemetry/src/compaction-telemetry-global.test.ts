import { type CompactionResult, createCompactor, createTokenCounter } from '@compaction/core';
import { createSummarization } from '@compaction/strategy-summarization';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { codingConversation, createMockProvider } from '@compaction/testing';
import { context, type MeterProvider, metrics, ProxyTracer, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AsyncContextManager } from './__fixtures__/async-context-manager.js';
import { parentOf, telemetrySdk } from './__fixtures__/telemetry-sdk.js';
import { compactionTelemetry } from './compaction-telemetry.js';
import { loadOpenTelemetryApi } from './load-opentelemetry-api.js';

const counter = createTokenCounter();
const history = codingConversation(20, 2000);
const budget = { contextWindow: Math.ceil(counter.estimate(history) * 0.9), reservedOutputTokens: 0 };
const strategy = createToolResultTruncation({ mode: 'mask' });

/** A result without what differs from run to run: the event's id and times. */
function comparable(result: CompactionResult) {
  const { id, durationMs, startedAt, ...event } = result.event ?? {};
  return { ...result, event };
}

afterEach(() => {
  // The globals are the process's: the next test file starts with none registered, as this one did.
  trace.disable();
  metrics.disable();
  context.disable();
});

describe('compactionTelemetry with the global providers', () => {
  it('records nothing and changes nothing until an SDK is registered, then records through the same observer', async () => {
    const observer = await compactionTelemetry();
    const plain = await createCompactor({ strategy, budget, counter }).compact(history, {
      sessionId: 'before',
    });
    const compactor = createCompactor({ strategy, budget, counter, observers: [observer] });
    const unregistered = await compactor.compact(history, { sessionId: 'before' });
    expect(comparable(unregistered)).toEqual(comparable(plain));
    await compactor.prepare(history, { sessionId: 'before' });

    const sdk = telemetrySdk();
    trace.setGlobalTracerProvider(sdk.tracerProvider);
    metrics.setGlobalMeterProvider(sdk.meterProvider);
    await compactor.compact(history, { sessionId: 'after' });
    const spans = sdk.spans();
    expect(spans.map((span) => span.name)).toEqual(['compaction.strategy', 'compaction.compact']);
    expect(spans.map((span) => span.attributes['compaction.session.id'])).toEqual([undefined, 'after']);
    const points = (await sdk.points()).filter((point) => point.name === 'compaction.compactions');
    expect(points.map((point) => point.value)).toEqual([1]);
    await sdk.shutdown();
  });

  it('starts no span at all while no SDK is registered, and spans as soon as one is', async () => {
    const started = vi.spyOn(ProxyTracer.prototype, 'startSpan');
    try {
      const observer = await compactionTelemetry();
      const compactor = createCompactor({ strategy, budget, counter, observers: [observer] });
      await compactor.prepare(history.slice(0, 4), { sessionId: 'under the trigger' });
      await compactor.compact(history, { sessionId: 'before' });
      expect(started).not.toHaveBeenCalled();

      const sdk = telemetrySdk();
      trace.setGlobalTracerProvider(sdk.tracerProvider);
      await compactor.prepare(history.slice(0, 4), { sessionId: 'after' });
      expect(started).toHaveBeenCalledTimes(1);
      expect(sdk.spans().map((span) => span.name)).toEqual(['compaction.prepare']);
      await sdk.shutdown();
    } finally {
      started.mockRestore();
    }
  });

  it('records the metrics with a meter provider and no tracer provider, and the spans with only a tracer', async () => {
    const sdk = telemetrySdk();
    const metricsOnly = await compactionTelemetry({ meterProvider: sdk.meterProvider });
    const tracesOnly = await compactionTelemetry({ tracerProvider: sdk.tracerProvider });
    await createCompactor({ strategy, budget, counter, observers: [metricsOnly] }).compact(history);
    expect(sdk.spans()).toEqual([]);
    const points = (await sdk.points()).filter((point) => point.name === 'compaction.compactions');
    expect(points.map((point) => point.value)).toEqual([1]);
    await createCompactor({ strategy, budget, counter, observers: [tracesOnly] }).compact(history);
    expect(sdk.spans().map((span) => span.name)).toEqual(['compaction.strategy', 'compaction.compact']);
    await sdk.shutdown();
  });

  it('never changes what the Compactor returns when the SDK itself fails', async () => {
    const broken = {
      getMeter: () => {
        throw new Error('broken meter');
      },
    } as MeterProvider;
    const sdk = telemetrySdk();
    const plain = await createCompactor({ strategy, budget, counter }).compact(history);
    for (const tracerProvider of [sdk.tracerProvider, undefined]) {
      const observer = await compactionTelemetry({
        meterProvider: broken,
        ...(tracerProvider ? { tracerProvider } : {}),
      });
      const observed = await createCompactor({ strategy, budget, counter, observers: [observer] }).compact(
        history,
      );
      expect(comparable(observed)).toEqual(comparable(plain));
    }
    expect(sdk.spans().map((span) => span.name)).toContain('compaction.compact');
    await sdk.shutdown();
  });

  it('does nothing, and throws nothing, when @opentelemetry/api is not installed', async () => {
    const missing = Object.assign(new Error("Cannot find package '@opentelemetry/api' imported from /app"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    expect(await loadOpenTelemetryApi(() => Promise.reject(missing))).toBeUndefined();
    const broken = Object.assign(new Error("Cannot find module './build/src/index.js'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(loadOpenTelemetryApi(() => Promise.reject(broken))).rejects.toBe(broken);

    const observer = await compactionTelemetry({ loadApi: async () => undefined });
    const plain = await createCompactor({ strategy, budget, counter }).compact(history);
    const observed = await createCompactor({ strategy, budget, counter, observers: [observer] }).compact(
      history,
    );
    expect(comparable(observed)).toEqual(comparable(plain));
  });

  it('with a context manager registered, spans the provider SDK starts are children of the summarizer call', async () => {
    context.setGlobalContextManager(new AsyncContextManager());
    const sdk = telemetrySdk();
    const observer = await compactionTelemetry({ tracerProvider: sdk.tracerProvider });
    const mock = createMockProvider({ responses: ['The agent read the files.'] });
    // As an instrumented HTTP client does: a span under whatever span is active when the request is sent.
    const tracer = sdk.tracerProvider.getTracer('http');
    const provider = {
      ...mock,
      generate: async (request: Parameters<typeof mock.generate>[0]) => {
        const span = tracer.startSpan('POST /v1/messages');
        try {
          return await mock.generate(request);
        } finally {
          span.end();
        }
      },
    };
    const summarization = createSummarization({ provider, template: '{{conversation}}' });
    const compactor = createCompactor({
      strategy: summarization,
      budget: { ...budget, target: 0.12 },
      counter,
      observers: [observer],
    });
    await compactor.compact(history);
    const spans = sdk.spans();
    const call = spans.find((span) => span.name === 'chat mock-model');
    const request = spans.find((span) => span.name === 'POST /v1/messages');
    expect(parentOf(request!)).toBe(call?.spanContext().spanId);
    await sdk.shutdown();
  });
});
