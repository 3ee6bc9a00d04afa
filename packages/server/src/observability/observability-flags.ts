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
  if (flag !== '') return withTracesPath(checkedUrl(flag, '--otel'));
  const traces = environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (traces !== undefined && traces !== '') {
    return checkedUrl(traces, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT').href;
  }
  const base = environment.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (base !== undefined && base !== '')
    return withTracesPath(checkedUrl(base, 'OTEL_EXPORTER_OTLP_ENDPOINT'));
  return withTracesPath(new URL(defaultOtlpEndpoint));
}

/**
 * What the observability flags ask for; with `--otel`, tracing is started (the OpenTelemetry SDK loaded then
 * only). `serviceName` names the spans' service unless `OTEL_SERVICE_NAME` does.
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
  const name = environment.OTEL_SERVICE_NAME;
  return {
    ...settings,
    tracing: await startTracing({ url, serviceName: name === undefined || name === '' ? serviceName : name }),
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

function withTracesPath(base: URL): string {
  const path = base.pathname.replace(/\/+$/, '');
  if (path.endsWith('/v1/traces')) return base.href;
  const url = new URL(base.href);
  url.pathname = `${path}/v1/traces`;
  return url.href;
}
