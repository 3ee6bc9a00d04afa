import { CompactionAbortedError, type Message, type Provider, ProviderError } from '@compaction/core';
import { expect, it } from 'vitest';
import type { TestServer } from './loopback-server.js';

/** What {@link describeProviderTransport} needs to know of an adapter and its API. */
export interface ProviderTransportSettings {
  /** The loopback server the provider talks to (started by the test file, its requests cleared per test). */
  server: () => TestServer;
  /** The path `generate` posts to, such as `/v1/messages`. */
  path: string;
  /** A successful response body whose text contains `Summary`. */
  answer: () => unknown;
  /** A rate-limit error body, as the API sends it with a 429. */
  rateLimited: unknown;
  /** A response the SDK cannot parse (cut-off JSON). */
  malformed: string;
  /** Creates the provider on the server, with no retries and a 2-second timeout unless the settings say. */
  provider: (settings?: { maxRetries?: number; timeout?: number }) => Provider;
  /** The conversation `generate` is called with. */
  messages: Message[];
}

/**
 * Registers the tests every SDK-backed provider passes over real HTTP, whatever its API: the SDK retries a
 * 429 after `retry-after`; a timeout is a retryable `ProviderError` without a status; a malformed response is
 * a `ProviderError` that is not retryable; the abort signal cancels a pending request, and an aborted signal
 * sends nothing. Call it inside the adapter's `describe`.
 */
export function describeProviderTransport(settings: ProviderTransportSettings): void {
  const { path, messages } = settings;
  const failure = (promise: Promise<unknown>) => promise.catch((caught: unknown) => caught);

  it('retries a 429 after retry-after and succeeds', async () => {
    const server = settings.server();
    server.enqueue(
      path,
      { status: 429, headers: { 'retry-after-ms': '10', 'retry-after': '0' }, body: settings.rateLimited },
      { body: settings.answer() },
    );
    const result = await settings.provider({ maxRetries: 1 }).generate({ messages });
    expect(result.text).toContain('Summary');
    expect(server.requests).toHaveLength(2);
  });

  it('reports a timeout as a retryable ProviderError', async () => {
    settings.server().enqueue(path, { delayMs: 2000, body: settings.answer() });
    const error = await failure(settings.provider({ timeout: 100 }).generate({ messages }));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, status: undefined });
  });

  it('reports a malformed JSON response as a ProviderError that is not retryable', async () => {
    settings.server().enqueue(path, { raw: settings.malformed });
    const error = await failure(settings.provider().generate({ messages }));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: false });
  });

  it('honours the abort signal', async () => {
    const server = settings.server();
    server.enqueue(path, { delayMs: 2000, body: settings.answer() });
    const controller = new AbortController();
    const pending = settings.provider().generate({ messages, abortSignal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(CompactionAbortedError.isInstance(await failure(pending))).toBe(true);
    const sent = server.requests.length;
    const already = await failure(
      settings.provider().generate({ messages, abortSignal: AbortSignal.abort() }),
    );
    expect(CompactionAbortedError.isInstance(already)).toBe(true);
    expect(server.requests).toHaveLength(sent);
  });
}
