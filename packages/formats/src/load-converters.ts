import type { Message } from '@compaction/core';
import { FormatError } from './format-error.js';

/**
 * What the formats use of `@compaction/provider-anthropic`: its converters between an Anthropic Messages
 * request and core messages. The package's own types are checked against it in `load-converters.test.ts`.
 */
export interface AnthropicConverters {
  /** Core messages of a request's `system` and `messages`. */
  fromAnthropicRequest(request: object): Message[];
  /** The `system` and `messages` of a request for core messages. */
  toAnthropicRequest(messages: Message[]): { messages: unknown[] };
}

/**
 * What the formats use of `@compaction/provider-openai`: its converters between OpenAI Chat messages or
 * Responses input and core messages. The package's own types are checked against it in `load-converters.test.ts`.
 */
export interface OpenAIConverters {
  /** Core messages of Chat Completions messages. */
  fromOpenAIChatMessages(messages: ReadonlyArray<{ readonly role: string }>): Message[];
  /** Chat Completions messages for core messages. */
  toOpenAIChatMessages(messages: Message[]): unknown[];
  /** Core messages of a Responses `input` (a text, or a list of items). */
  fromOpenAIResponsesInput(input: string | ReadonlyArray<object>): Message[];
  /** A Responses `input` for core messages. */
  toOpenAIResponsesInput(messages: Message[]): unknown;
  /** The fields of a Responses request that continue context the API stores, in order. */
  storedContextFields(request: object | undefined): string[];
}

/** The provider packages whose converters the formats use. */
export type ProviderPackageName = '@compaction/provider-anthropic' | '@compaction/provider-openai';

// The names checked at run time, so that an older provider package fails with a clear message; the compiler
// keeps them in step with the interfaces above.
const anthropicConverterNames = [
  'fromAnthropicRequest',
  'toAnthropicRequest',
] as const satisfies ReadonlyArray<keyof AnthropicConverters>;
const openAIConverterNames = [
  'fromOpenAIChatMessages',
  'toOpenAIChatMessages',
  'fromOpenAIResponsesInput',
  'toOpenAIResponsesInput',
  'storedContextFields',
] as const satisfies ReadonlyArray<keyof OpenAIConverters>;

/**
 * Loads the converters of `@compaction/provider-anthropic`, lazily: an application (or the CLI) starts without
 * the provider SDKs, and only reading or writing an Anthropic conversation pays for loading them. Throws a
 * {@link FormatError} of reason `missing-package` that says to install it when it is not installed.
 */
export async function loadAnthropicConverters(): Promise<AnthropicConverters> {
  return loadProviderPackage<AnthropicConverters>('@compaction/provider-anthropic', anthropicConverterNames);
}

/** Loads the converters of `@compaction/provider-openai`, lazily (see {@link loadAnthropicConverters}). */
export async function loadOpenAIConverters(): Promise<OpenAIConverters> {
  return loadProviderPackage<OpenAIConverters>('@compaction/provider-openai', openAIConverterNames);
}

/**
 * Loads a provider package, lazily, and checks that it has the named exports (functions). Throws a
 * {@link FormatError} of reason `missing-package` when it is not installed, or when an export is missing (a
 * version older than the one these formats were built with).
 */
export async function loadProviderPackage<Exports>(
  packageName: ProviderPackageName,
  exportNames: readonly string[],
): Promise<Exports> {
  let loaded: Record<string, unknown>;
  try {
    // The providers are optional peers, with no build-time dependency on them (their tests depend on
    // @compaction/testing, which reads Claude Code logs with this package): the name is a value, and what it
    // gives is typed by the interfaces above.
    loaded = (await import(packageName)) as Record<string, unknown>;
  } catch (error) {
    throw new FormatError({
      reason: 'missing-package',
      message: `this format needs ${packageName}; install it next to @compaction/formats`,
      cause: error,
    });
  }
  const missing = exportNames.filter((name) => typeof loaded[name] !== 'function');
  if (missing.length > 0) {
    throw new FormatError({
      reason: 'missing-package',
      message: `${packageName} does not export ${missing.join(', ')}; update it to a version that matches @compaction/formats`,
    });
  }
  return loaded as Exports;
}
