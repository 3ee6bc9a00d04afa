import type { ParseArgsConfig } from 'node:util';
import { usageError } from '../errors/cli-error.js';
import type { ObservabilitySettings } from './observability-settings.js';
import { type LogFormat, logFormats } from './service-log.js';
import { startTracing } from './start-tracing.js';

/** The flags of `compaction serve` and `compaction proxy` about metrics, traces and logs. */
export const observabilityFlagOptions = {
  'no-metrics': { type: 'boolean' },
  otel: { type: 'string' },
  'log-format': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** The values of {@link observabilityFlagOptions} as parsed. */
export interface ObservabilityFlagValues {
  'no-metrics'?: boolean | undefined;
  otel?: string | undefined;
  'log-format'?: string | undefined;
}

/** Where OTLP/HTTP receivers listen by default (the OpenTelemetry Collector's port). */
export const defaultOtlpEndpoint = 'http://localhost:4318';

/**
 * The arguments with a bare `--otel` (not followed by an `http://` or `https://` URL) written `--otel=`: the
 * flag's endpoint is optional, which `parseArgs` has no way to say.
 */
export function withBareOtelFlag(args: readonly string[]): string[] {
  return args.map((argument, index) =>
    argument === '--otel' && !/^https?:\/\//i.test(args[index + 1] ?? '') ? '--otel=' : argument,
  );
}

/**
 * The OTLP/HTTP traces URL: `--otel <endpoint>` (a base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT`), else
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else `OTEL_EXPORTER_OTLP_ENDPOINT`, else
 * {@link defaultOtlpEndpoint}; `/v1/traces` is added to a base URL.
 */
export function tracesEndpoint(flag: string, environment: NodeJS.ProcessEnv): string {
  return signalEndpoint('traces', flag, environment);
}

/**
 * The OTLP/HTTP metrics URL: `--otel <endpoint>` (a base URL), else `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` as it
 * is, else `OTEL_EXPORTER_OTLP_ENDPOINT`, else {@link defaultOtlpEndpoint}; `/v1/metrics` is added to a base URL.
 */
export function metricsEndpoint(flag: string, environment: NodeJS.ProcessEnv): string {
  return signalEndpoint('metrics', flag, environment);
}

function signalEndpoint(signal: 'traces' | 'metrics', flag: string, environment: NodeJS.ProcessEnv): string {
  if (flag !== '') return withSignalPath(checkedUrl(flag, '--otel'), signal);
  const variable = `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`;
  const own = environment[variable];
  if (own !== undefined && own !== '') return checkedUrl(own, variable).href;
  const base = environment.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (base !== undefined && base !== '')
    return withSignalPath(checkedUrl(base, 'OTEL_EXPORTER_OTLP_ENDPOINT'), signal);
  return withSignalPath(new URL(defaultOtlpEndpoint), signal);
}

/** `OTEL_METRIC_EXPORT_INTERVAL`, in ms, when it is set: how often the metrics are sent. */
function metricInterval(environment: NodeJS.ProcessEnv): number | undefined {
  const text = environment.OTEL_METRIC_EXPORT_INTERVAL;
  if (text === undefined || text === '') return undefined;
  const interval = Number(text);
  if (!Number.isInteger(interval) || interval <= 0) {
    throw usageError(`OTEL_METRIC_EXPORT_INTERVAL must be a positive number of ms, got "${text}"`);
  }
  return interval;
}

/**
 * What the observability flags ask for; with `--otel`, tracing and the export of the Compactors' metrics are
 * started (the OpenTelemetry SDK loaded then only). `serviceName` names the spans' service unless `OTEL_SERVICE_NAME` does.
 */
export async function readObservabilityFlags(
  values: ObservabilityFlagValues,
  environment: NodeJS.ProcessEnv,
  serviceName: string,
): Promise<ObservabilitySettings> {
  const logFormat = (values['log-format'] ?? 'text') as LogFormat;
  if (!logFormats.includes(logFormat)) {
    throw usageError(`--log-format must be ${logFormats.join(' or ')}, got "${values['log-format']}"`);
  }
  const settings: ObservabilitySettings = { metrics: values['no-metrics'] !== true, logFormat };
  if (values.otel === undefined) return settings;
  const url = tracesEndpoint(values.otel, environment);
  const metricsUrl = metricsEndpoint(values.otel, environment);
  const interval = metricInterval(environment);
  const name = environment.OTEL_SERVICE_NAME;
  return {
    ...settings,
    tracing: await startTracing({
      url,
      metricsUrl,
      ...(interval === undefined ? {} : { metricIntervalMs: interval }),
      serviceName: name === undefined || name === '' ? serviceName : name,
    }),
  };
}

function checkedUrl(text: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`${source} must be an http:// or https:// URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`${source} must be an http:// or https:// URL, got "${text}"`);
  }
  return url;
}

function withSignalPath(base: URL, signal: 'traces' | 'metrics'): string {
  const path = base.pathname.replace(/\/+$/, '');
  if (path.endsWith(`/v1/${signal}`)) return base.href;
  const url = new URL(base.href);
  url.pathname = `${path}/v1/${signal}`;
  return url.href;
}
