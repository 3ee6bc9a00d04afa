import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ContextOverflow } from '@compaction/core';
import { loadProviderPackage } from '@compaction/formats';
import { errorJson, isPlainEventStream, pipeResponse, readWhole, sendBuffered } from './forward-request.js';
import {
  compactAfterOverflow,
  type PreparedRequest,
  type RequestCompactionContext,
} from './request-compaction.js';
import { readStreamOpening } from './stream-opening.js';
import type { ProxiedFormat } from './upstreams.js';

/**
 * Retries after overflows, at most: the first is sized by the provider's figures, the second cuts harder; a
 * third refusal is the client's to see.
 */
export const maximumOverflowRetries = 2;

type OverflowParser = (error: unknown) => ContextOverflow | undefined;

/** Each provider's reading of its own "too long" refusal, from the provider packages. */
async function overflowParser(format: ProxiedFormat): Promise<OverflowParser> {
  if (format === 'anthropic') {
    const loaded = await loadProviderPackage<{ parseAnthropicContextOverflow: OverflowParser }>(
      '@compaction/provider-anthropic',
      ['parseAnthropicContextOverflow'],
    );
    return loaded.parseAnthropicContextOverflow;
  }
  const loaded = await loadProviderPackage<{ parseOpenAIContextOverflow: OverflowParser }>(
    '@compaction/provider-openai',
    ['parseOpenAIContextOverflow'],
  );
  return loaded.parseOpenAIContextOverflow;
}

/** An upstream answer: the overflow it refused the request with, if any, and how to pass it to the client. */
interface Verdict {
  overflow?: ContextOverflow;
  pass(): Promise<void>;
}

/** Reads as much of an answer as tells whether it refused the request as too long, and no more. */
async function verdictOf(
  answer: IncomingMessage,
  format: ProxiedFormat,
  response: ServerResponse,
): Promise<Verdict> {
  const status = answer.statusCode ?? 502;
  if (status === 200 && format === 'openai-responses' && isPlainEventStream(answer)) {
    // The Responses API may refuse a request as too long in the first event of a stream it started.
    const opening = await readStreamOpening(answer);
    const parse = await overflowParser(format);
    const overflow = opening.error === undefined ? undefined : parse(opening.error);
    return {
      ...(overflow === undefined ? {} : { overflow }),
      pass: () => pipeResponse(answer, response, opening),
    };
  }
  if (status !== 400 && status !== 413) return { pass: () => pipeResponse(answer, response) };
  // A refusal may be a context overflow: read it whole to find out, as only then is there a retry.
  const refusal = await readWhole(answer);
  const parse = await overflowParser(format);
  const overflow = parse({ status, error: errorJson(refusal, answer.headers['content-encoding'] as string) });
  return {
    ...(overflow === undefined ? {} : { overflow }),
    pass: async () => sendBuffered(answer, refusal, response),
  };
}

/** What {@link answerWithOverflowRetries} needs besides the first answer. */
export interface OverflowRetrySettings {
  /** The request's format, which says how the upstream words its refusals. */
  format: ProxiedFormat;
  /** The request as prepared: its conversation, read already or to read when the upstream refuses it. */
  prepared: PreparedRequest;
  context: RequestCompactionContext;
  response: ServerResponse;
  /** Sends a body upstream with the client's method and headers. */
  send(body: Buffer): Promise<IncomingMessage>;
  /** Called before each retry is sent. */
  retrying(): void;
  log(line: string): void;
}

/**
 * Passes the upstream's answer to the client, unless it refused the request as too long: then the
 * conversation is compacted under the limit the refusal stated and sent again, at most
 * {@link maximumOverflowRetries} times, each retry cut harder than the one before. The client gets the
 * provider's own refusal only when no cut fits.
 */
export async function answerWithOverflowRetries(
  first: IncomingMessage,
  settings: OverflowRetrySettings,
): Promise<void> {
  const { context, response } = settings;
  let answer = first;
  let { conversation } = settings.prepared;
  for (let attempt = 1; ; attempt++) {
    const verdict = await verdictOf(answer, settings.format, response);
    if (verdict.overflow === undefined || attempt > maximumOverflowRetries) return verdict.pass();
    // A request that went on unread is read now, to be compacted.
    conversation ??= await settings.prepared.readLater?.().catch(() => undefined);
    if (conversation === undefined) return verdict.pass();
    let retry: PreparedRequest;
    try {
      retry = await compactAfterOverflow(conversation, verdict.overflow, context, attempt);
    } catch (error) {
      settings.log(
        `compaction proxy: the upstream refused a request as too long, and it could not be compacted: ${(error as Error).message}`,
      );
      return verdict.pass();
    }
    settings.retrying();
    answer.destroy();
    answer = await settings.send(retry.body);
    conversation = retry.conversation ?? conversation;
  }
}
