import fc from 'fast-check';
import { getMetricsFromIterator, type PromData, type PromHistogramData } from 'prom2javascript';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { MetricRegistry } from './metric-registry.js';

const parse = (text: string) => getMetricsFromIterator(text.split('\n')[Symbol.iterator]());

const routes = ['/v1/sessions', '/v1/sessions/{id}', '/v1/sessions/{id}/compact', 'unmatched'];
const statuses = ['200', '201', '404', '500', 'aborted'];

// Pure text formatting and counting, which a second Node version would not change: on the full run only.
describeOnFullRun('MetricRegistry', () => {
  it('renders counters and histograms that a Prometheus parser reads back as counted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            route: fc.constantFrom(...routes),
            status: fc.constantFrom(...statuses),
            seconds: fc.double({ min: 0, max: 200, noNaN: true }),
          }),
          { maxLength: 60 },
        ),
        async (requests) => {
          const registry = new MetricRegistry();
          const counter = registry.counter('test_requests_total', 'Requests.');
          const latency = registry.histogram('test_seconds', 'Latency.', [0.1, 1, 10]);
          for (const { route, status, seconds } of requests) {
            counter.increment({ route, status });
            latency.observe(seconds, { route });
          }
          const parsed = await parse(registry.render());
          for (const route of routes) {
            for (const status of statuses) {
              const expected = requests.filter(
                (each) => each.route === route && each.status === status,
              ).length;
              const sample = ((parsed.test_requests_total?.data ?? []) as PromData[]).find(
                (each) => each.labels.route === route && each.labels.status === status,
              );
              expect(sample?.value ?? 0).toBe(expected);
            }
            const observed = requests.filter((each) => each.route === route);
            const series = ((parsed.test_seconds?.data ?? []) as PromHistogramData[]).find(
              (each) => each.labels.route === route,
            );
            expect(series?.count ?? 0).toBe(observed.length);
            if (series === undefined) continue;
            // Cumulative buckets: each counts every observation at or under its bound.
            expect(series.buckets['1']).toBe(observed.filter((each) => each.seconds <= 1).length);
            expect(series.buckets['+Inf']).toBe(observed.length);
          }
        },
      ),
    );
  });

  it('escapes quotes, backslashes and newlines in label values and help', () => {
    const registry = new MetricRegistry();
    registry.counter('test_total', 'Line one\nline two \\ end').increment({ strategy: 'a"b\\c\nd' });
    expect(registry.render()).toBe(
      '# HELP test_total Line one\\nline two \\\\ end\n# TYPE test_total counter\n' +
        'test_total{strategy="a\\"b\\\\c\\nd"} 1\n',
    );
  });

  it('reads gauges and kept counters when rendered, not when registered', async () => {
    const registry = new MetricRegistry();
    let sessions = 1;
    registry.gauge('test_sessions', 'Sessions.', () => sessions);
    registry.readCounter('test_retries_total', 'Retries.', () => sessions * 2);
    sessions = 5;
    const parsed = await parse(registry.render());
    expect(parsed.test_sessions).toMatchObject({ type: 'gauge', data: [{ value: 5 }] });
    expect(parsed.test_retries_total).toMatchObject({ type: 'counter', data: [{ value: 10 }] });
  });
});
