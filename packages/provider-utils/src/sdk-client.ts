/**
 * How an adapter builds its SDK client when none is injected: the settings the official SDKs
 * (`@anthropic-ai/sdk`, `openai`) share, named as the adapters' settings name them.
 */
export interface SdkClientSettings {
  /** Default: the SDK's own (its API key environment variable). */
  apiKey?: string;
  /** Default: the SDK's own. */
  baseURL?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries of failed requests (429, 5xx, timeouts), done by the SDK. Default: the SDK's (2). */
  maxRetries?: number;
  /** Request timeout in milliseconds. Default: the SDK's (10 minutes). */
  timeout?: number;
}

/** What {@link createSdkClient} needs: the package, how to import it, and the settings. */
export interface SdkClientSource<Settings extends SdkClientSettings> {
  /** The SDK's package name, for the "not installed" error. */
  packageName: string;
  /** Imports the SDK, whose default export is the client class (`() => import(packageName)`). */
  load: () => Promise<unknown>;
  settings: Settings;
  /** Settings passed to the client constructor under their own name (OpenAI's `organization`). */
  passThrough?: ReadonlyArray<keyof Settings & string>;
}

/**
 * Imports an SDK (a peer dependency, loaded only when no client is injected) and constructs its client from
 * the settings: `headers` become `defaultHeaders`, settings left undefined are not passed, so the SDK's own
 * defaults apply. Throws a plain error naming the package when it is not installed.
 */
export async function createSdkClient<Client, Settings extends SdkClientSettings>(
  source: SdkClientSource<Settings>,
): Promise<Client> {
  const { packageName, settings } = source;
  let sdk: { default: new (options: Record<string, unknown>) => unknown };
  try {
    sdk = (await source.load()) as typeof sdk;
  } catch (error) {
    throw new Error(`${packageName} is not installed; install it or pass a client`, { cause: error });
  }
  const options: Record<string, unknown> = {};
  if (settings.apiKey !== undefined) options.apiKey = settings.apiKey;
  if (settings.baseURL !== undefined) options.baseURL = settings.baseURL;
  if (settings.headers !== undefined) options.defaultHeaders = settings.headers;
  if (settings.maxRetries !== undefined) options.maxRetries = settings.maxRetries;
  if (settings.timeout !== undefined) options.timeout = settings.timeout;
  for (const key of source.passThrough ?? []) {
    if (settings[key] !== undefined) options[key] = settings[key];
  }
  return new sdk.default(options) as Client;
}
