/** Per-request options the adapter passes to the SDK. */
export interface OpenAIRequestOptions {
  signal?: AbortSignal;
}

/**
 * The part of the `openai` client the adapter uses: `chat.completions.create` and, for the Responses API,
 * `responses.create`. An `OpenAI` instance satisfies it, from any supported SDK version (and so does an
 * `AzureOpenAI` client or any object with the same methods). Parameters are typed loosely on purpose: the
 * adapter builds the bodies itself.
 */
export interface OpenAIClient {
  chat: { completions: { create(body: never, options?: never): PromiseLike<unknown> } };
  responses?: { create(body: never, options?: never): PromiseLike<unknown> };
}

/** How to build a client when none is injected. */
export interface OpenAIClientSettings {
  /** Default: the SDK's own (`OPENAI_API_KEY`). */
  apiKey?: string;
  /** Default: the SDK's own (`https://api.openai.com/v1`); any compatible endpoint works. */
  baseURL?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries of failed requests (429, 5xx, timeouts), done by the SDK. Default: the SDK's (2). */
  maxRetries?: number;
  /** Request timeout in milliseconds. Default: the SDK's (10 minutes). */
  timeout?: number;
  organization?: string;
  project?: string;
}

/** Loads `openai` (a peer dependency) and builds a client from settings. */
export async function createOpenAIClient(settings: OpenAIClientSettings): Promise<OpenAIClient> {
  const packageName = 'openai';
  let sdk: { default: new (options: Record<string, unknown>) => unknown };
  try {
    sdk = (await import(packageName)) as typeof sdk;
  } catch (error) {
    throw new Error(`${packageName} is not installed; install it or pass a client`, { cause: error });
  }
  const options: Record<string, unknown> = {};
  if (settings.apiKey !== undefined) options.apiKey = settings.apiKey;
  if (settings.baseURL !== undefined) options.baseURL = settings.baseURL;
  if (settings.headers !== undefined) options.defaultHeaders = settings.headers;
  if (settings.maxRetries !== undefined) options.maxRetries = settings.maxRetries;
  if (settings.timeout !== undefined) options.timeout = settings.timeout;
  if (settings.organization !== undefined) options.organization = settings.organization;
  if (settings.project !== undefined) options.project = settings.project;
  return new sdk.default(options) as OpenAIClient;
}

/** Calls a loosely typed SDK method with the adapter's body. */
export function callMethod<Result>(
  owner: { create(body: never, options?: never): PromiseLike<unknown> },
  body: object,
  options: OpenAIRequestOptions,
): PromiseLike<Result> {
  const create = owner.create as unknown as (
    body: object,
    options: OpenAIRequestOptions,
  ) => PromiseLike<Result>;
  return create.call(owner, body, options);
}
