import type { IncomingMessage } from 'node:http';

/** What a stream's opening events said: the bytes read so far, and the error it opened with, if any. */
export interface StreamOpening {
  head: Buffer;
  /** The error of a stream whose first event after the opening ones is a failure (a Responses `response.failed`). */
  error?: unknown;
  /** Whether the stream ended within what was read. */
  ended: boolean;
}

/** Events that open a Responses stream before the model's output or a failure. */
const openingEvents = new Set(['response.created', 'response.queued', 'response.in_progress']);

/** The most bytes read before giving up: a stream that opens with a failure says so in its first events. */
const maximumHeadBytes = 64 * 1024;

/**
 * Reads the opening events of an OpenAI Responses stream, up to its first event that is neither an opening
 * one (`response.created`...) nor a failure. The Responses API can refuse a request as too long after it has
 * answered 200 and started the stream: its first event after `response.created` is then a `response.failed`
 * (or `error`) whose error has the code `context_length_exceeded`. The stream is left paused after what was
 * read, so the rest can be piped on.
 */
export function readStreamOpening(upstream: IncomingMessage): Promise<StreamOpening> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: unknown, ended: boolean) => {
      upstream.off('data', onData);
      upstream.off('end', onEnd);
      upstream.off('error', onEnd);
      upstream.off('close', onEnd);
      if (!ended) upstream.pause();
      resolve({ head: Buffer.concat(chunks), ...(error === undefined ? {} : { error }), ended });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      const verdict = readEvents(Buffer.concat(chunks).toString('utf8'));
      if (verdict.done || size > maximumHeadBytes) finish(verdict.error, false);
    };
    const onEnd = () => finish(readEvents(Buffer.concat(chunks).toString('utf8')).error, true);
    upstream.on('data', onData);
    upstream.on('end', onEnd);
    upstream.on('error', onEnd);
    // Cut short (the client went away, the upstream dropped): what was read is all there is.
    upstream.on('close', onEnd);
  });
}

/** Reads the complete events of a stream's text: done at the first one past the opening, with its error. */
function readEvents(text: string): { done: boolean; error?: unknown } {
  const events = text.split(/\r?\n\r?\n/);
  // The last piece is an event still arriving (or empty after the final blank line).
  for (const event of events.slice(0, -1)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data === '') continue;
    let value: { type?: unknown; response?: { error?: unknown }; error?: unknown };
    try {
      value = JSON.parse(data);
    } catch {
      return { done: true };
    }
    if (typeof value.type === 'string' && openingEvents.has(value.type)) continue;
    if (value.type === 'response.failed') return { done: true, error: { error: value.response?.error } };
    if (value.type === 'error') return { done: true, error: value };
    return { done: true };
  }
  return { done: false };
}
