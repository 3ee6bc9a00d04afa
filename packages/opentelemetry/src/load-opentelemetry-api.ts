/** The OpenTelemetry API, as its module exports it. */
export type OpenTelemetryApi = typeof import('@opentelemetry/api');

/**
 * Imports `@opentelemetry/api`, an optional peer: `undefined` when it is not installed (then no SDK can be
 * registered either, so there is nothing to record). Any other failure to load it is thrown.
 */
export async function loadOpenTelemetryApi(
  importApi: () => Promise<OpenTelemetryApi> = () => import('@opentelemetry/api'),
): Promise<OpenTelemetryApi | undefined> {
  try {
    return await importApi();
  } catch (error) {
    if (isModuleNotFound(error)) return undefined;
    throw error;
  }
}

/** Whether the API itself is missing (not a module it imports, which is a broken install to report). */
function isModuleNotFound(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
  return missing && typeof message === 'string' && message.includes("'@opentelemetry/api'");
}
