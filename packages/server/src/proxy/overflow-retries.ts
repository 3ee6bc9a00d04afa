import type { IncomingMessage, ServerResponse } from 'node:http';
import { callWithCompaction, OverflowRetriesExhaustedError } from '@compaction/agent-loop';
import type { CompactionResult, ContextOverflow } from '@compaction/core';
import { errorJson, isPlainEventStream, pipeResponse, readWhole, sendBuffered } from './forward-request.js';
import { storeSession } from './prefix-memory.js';
import {
  learnFromOverflow,
  type PreparedRequest,
  type RequestCompactionContext,
  requestSize,
  retryRequest,
} from './request-compaction.js';
import { readStreamOpening } from './stream-opening.js';
import type { ProxiedFormat } from './upstreams.js';

type OverflowParser = (error: unknown) => ContextOverflow | undefined;

/** Each provider's reading of its own "too long" refusal, from the provider packages, loaded on first use. */
async function overflowParser(format: ProxiedFormat): Promise<OverflowParser> {
  if (format === 'anthropic')
    return (await import('@compaction/provider-anthropic')).parseAnthropicContextOverflow;
  return (await import('@compaction/provider-openai')).parseOpenAIContextOverflow;
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

/** A refusal the upstream answered, as the error the call wrapper recognises. */
class UpstreamRefusal extends Error {
  constructor(readonly overflow: ContextOverflow) {
    super(overflow.message);
  }
}

/** A retry that could not be sent upstream or read: the failure is the caller's, as for the first request. */
class SendFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('the retry could not be sent upstream or read');
  }
}

/**
 * Passes the upstream's answer to the client, unless it refused the request as too long: then the
 * conversation is compacted and sent again through `callWithCompaction`, the one overflow policy (the limit the
 * refusal stated is learned for the upstream's model, each retry is cut harder than the one before, at most
 * `maximumOverflowRetries` of them). The client gets the provider's own refusal only when no cut fits.
 */
export async function answerWithOverflowRetries(
  first: IncomingMessage,
  settings: OverflowRetrySettings,
): Promise<void> {
  const { context, format, response } = settings;
  let last = await verdictOf(first, format, response);
  if (last.overflow === undefined) return last.pass();
  // A request that went on unread is read now, to be compacted.
  let conversation =
    settings.prepared.conversation ?? (await settings.prepared.readLater?.().catch(() => undefined));
  if (conversation === undefined) return last.pass();
  let answer = first;
  let compaction: CompactionResult | undefined;
  const { compactor } = context;
  try {
    const { result } = await callWithCompaction({
      compactor,
      messages: conversation.messages,
      prepare: false,
      provider: conversation.upstream,
      sessionId: storeSession(conversation.key),
      size: () => requestSize(conversation!, context),
      compact: (messages, options) => context.inSlot(() => compactor.compact(messages, options)),
      parseContextOverflow: (error) => (error instanceof UpstreamRefusal ? error.overflow : undefined),
      onOverflow: () => learnFromOverflow(conversation!, last.overflow!, context),
      onCompaction: (result) => {
        compaction = result;
        return undefined;
      },
      send: async (_messages, attempt) => {
        if (attempt > 1) {
          const retry = await retryRequest(conversation!, compaction!, context);
          settings.retrying();
          answer.destroy();
          try {
            answer = await settings.send(retry.body);
            last = await verdictOf(answer, format, response);
          } catch (error) {
            throw new SendFailure(error);
          }
          conversation = retry.conversation ?? conversation;
        }
        if (last.overflow !== undefined) throw new UpstreamRefusal(last.overflow);
        return last;
      },
    });
    return result.pass();
  } catch (error) {
    if (error instanceof SendFailure) throw error.cause;
    // Every retry refused: the provider's own answer is the client's to see.
    if (!(OverflowRetriesExhaustedError.isInstance(error) && error.cause instanceof UpstreamRefusal)) {
      settings.log(
        `compaction proxy: the upstream refused a request as too long, and it could not be compacted: ${(error as Error).message}`,
      );
    }
    return last.pass();
  }
}
