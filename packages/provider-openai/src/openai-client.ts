import { createSdkClient, type SdkClientSettings } from '@compaction/provider-utils';

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
export interface OpenAIClientSettings extends SdkClientSettings {
  /** Default: the SDK's own (`OPENAI_API_KEY`). */
  apiKey?: string;
  /** Default: the SDK's own (`https://api.openai.com/v1`); any compatible endpoint works. */
  baseURL?: string;
  organization?: string;
  project?: string;
}

/** Loads `openai` (a peer dependency) and builds a client from settings. */
export function createOpenAIClient(settings: OpenAIClientSettings): Promise<OpenAIClient> {
  const packageName = 'openai';
  return createSdkClient({
    packageName,
    load: () => import(packageName),
    settings,
    passThrough: ['organization', 'project'],
  });
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
