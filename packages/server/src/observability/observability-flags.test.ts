import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { CliError } from '../errors/cli-error.js';
import {
  metricsEndpoint,
  readObservabilityFlags,
  tracesEndpoint,
  withBareOtelFlag,
} from './observability-flags.js';
import { requestIdOf } from './request-id.js';

// Pure parsing of flags, variables and ids, which a second Node version would not change: on the full run only.
describeOnFullRun('observability flags', () => {
  it('takes --otel with or without an endpoint', () => {
    expect(withBareOtelFlag(['--otel', '--port', '0'])).toEqual(['--otel=', '--port', '0']);
    expect(withBareOtelFlag(['--port', '0', '--otel'])).toEqual(['--port', '0', '--otel=']);
    expect(withBareOtelFlag(['--otel', 'http://collector:4318'])).toEqual([
      '--otel',
      'http://collector:4318',
    ]);
  });

  it('finds the traces endpoint in the flag, then the standard variables, then the default', () => {
    expect(tracesEndpoint('http://collector:4318', {})).toBe('http://collector:4318/v1/traces');
    expect(tracesEndpoint('http://collector:4318/v1/traces', {})).toBe('http://collector:4318/v1/traces');
    const environment = {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/custom',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example/base/',
    };
    expect(tracesEndpoint('', environment)).toBe('https://traces.example/custom');
    expect(tracesEndpoint('', { OTEL_EXPORTER_OTLP_ENDPOINT: environment.OTEL_EXPORTER_OTLP_ENDPOINT })).toBe(
      'https://otlp.example/base/v1/traces',
    );
    expect(tracesEndpoint('', {})).toBe('http://localhost:4318/v1/traces');
    expect(() => tracesEndpoint('collector:4318', {})).toThrow(
      /--otel must be an http:\/\/ or https:\/\/ URL/,
    );
  });

  it('finds the metrics endpoint in the flag, then the standard variables, then the default', () => {
    expect(metricsEndpoint('http://collector:4318', {})).toBe('http://collector:4318/v1/metrics');
    expect(metricsEndpoint('http://collector:4318/v1/metrics', {})).toBe('http://collector:4318/v1/metrics');
    const environment = {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/custom',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://metrics.example/custom',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example/base/',
    };
    expect(metricsEndpoint('', environment)).toBe('https://metrics.example/custom');
    expect(
      metricsEndpoint('', { OTEL_EXPORTER_OTLP_ENDPOINT: environment.OTEL_EXPORTER_OTLP_ENDPOINT }),
    ).toBe('https://otlp.example/base/v1/metrics');
    expect(metricsEndpoint('', {})).toBe('http://localhost:4318/v1/metrics');
    expect(() => metricsEndpoint('', { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'collector' })).toThrow(
      /OTEL_EXPORTER_OTLP_METRICS_ENDPOINT must be an http:\/\/ or https:\/\/ URL/,
    );
  });

  it('refuses an OTEL_METRIC_EXPORT_INTERVAL that is not a positive number of ms', async () => {
    const refused = readObservabilityFlags({ otel: '' }, { OTEL_METRIC_EXPORT_INTERVAL: '-5' }, 'x');
    await expect(refused).rejects.toThrow(
      'OTEL_METRIC_EXPORT_INTERVAL must be a positive number of ms, got "-5"',
    );
    await expect(refused).rejects.toSatisfy(CliError.isInstance);
  });

  it('reads the log format and metrics switch, and refuses an unknown format', async () => {
    expect(await readObservabilityFlags({}, {}, 'compaction-serve')).toEqual({
      metrics: true,
      logFormat: 'text',
    });
    expect(await readObservabilityFlags({ 'no-metrics': true, 'log-format': 'json' }, {}, 'x')).toEqual({
      metrics: false,
      logFormat: 'json',
    });
    const refused = readObservabilityFlags({ 'log-format': 'xml' }, {}, 'x');
    await expect(refused).rejects.toThrow('--log-format must be text or json, got "xml"');
    await expect(refused).rejects.toSatisfy(CliError.isInstance);
  });
});

describeOnFullRun('requestIdOf', () => {
  it('keeps a sane id and replaces anything else with a new one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (given) => {
        const id = requestIdOf(given);
        expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
        expect(id === given).toBe(/^[A-Za-z0-9._:-]{1,128}$/.test(given));
      }),
    );
    expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
    expect(requestIdOf(['first-id', 'second-id'])).toBe('first-id');
  });
});
