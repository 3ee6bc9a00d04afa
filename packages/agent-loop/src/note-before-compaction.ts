import { InvalidOptionsError, type Message } from '@compaction/core';
import type { AgentConversationTypes, ConversationAdapter, NoteWire } from './conversation-adapter.js';
import { NoteTimeoutError } from './note-timeout-error.js';

/**
 * The note turn before an automatic compaction: one extra model call that asks the model to write down what
 * it must keep; the note joins the conversation pinned, so the compaction keeps it verbatim.
 */
export interface NoteBeforeCompaction {
  /** What the model is asked. Default {@link noteBeforeCompactionPrompt}. */
  prompt?: string;
  /** The output limit of the note turn, in tokens. Default 1,024. */
  maximumTokens?: number;
  /** The note turn is aborted after this many milliseconds. Default 30,000. */
  timeoutMs?: number;
}

/** {@link NoteBeforeCompaction} with its defaults. */
export interface ResolvedNoteBeforeCompaction {
  prompt: string;
  maximumTokens: number;
  timeoutMs: number;
}

/** What the model is asked before an automatic compaction, by default. */
export const noteBeforeCompactionPrompt =
  'The context will be compacted now: older turns will be removed or summarized. Write a short note of what ' +
  'you must keep to go on with the task: decisions, open items, file paths, names and numbers. Answer with ' +
  'the note only; do not call tools.';

/** How the note reads in the conversation, before the model's text. */
export const notePrefix = 'Note written before the context was compacted:\n\n';

/** Validates the setting (`true` for the defaults); undefined when it is off. */
export function resolveNoteBeforeCompaction(
  setting: boolean | NoteBeforeCompaction | undefined,
): ResolvedNoteBeforeCompaction | undefined {
  if (setting === undefined || setting === false) return undefined;
  const given = setting === true ? {} : setting;
  const resolved = {
    prompt: given.prompt ?? noteBeforeCompactionPrompt,
    maximumTokens: given.maximumTokens ?? 1024,
    timeoutMs: given.timeoutMs ?? 30_000,
  };
  const issues = [
    ...(Number.isInteger(resolved.maximumTokens) && resolved.maximumTokens > 0
      ? []
      : [{ path: 'beforeCompaction.maximumTokens', message: 'must be a positive integer' }]),
    ...(Number.isFinite(resolved.timeoutMs) && resolved.timeoutMs > 0
      ? []
      : [{ path: 'beforeCompaction.timeoutMs', message: 'must be a positive number of milliseconds' }]),
    ...(resolved.prompt.trim() === ''
      ? [{ path: 'beforeCompaction.prompt', message: 'must not be empty' }]
      : []),
  ];
  if (issues.length > 0) throw new InvalidOptionsError({ subject: 'conversation', issues });
  return resolved;
}

/** The user message that asks for the note, after the working context of the note turn. */
export function notePromptMessage(prompt: string): Message {
  return { role: 'user', content: [{ type: 'text', text: prompt }] };
}

/**
 * Runs `call` with a signal that aborts when the caller's does or after `timeoutMs`; the timer never outlives
 * the call. A timeout rejects with an error that says so.
 */
export async function withTimeout<Result>(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<Result>,
): Promise<Result> {
  const controller = new AbortController();
  const timedOut = new NoteTimeoutError(timeoutMs);
  const timer = setTimeout(() => controller.abort(timedOut), timeoutMs);
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  signal?.addEventListener('abort', forward, { once: true });
  try {
    return await call(controller.signal);
  } catch (error) {
    throw controller.signal.reason === timedOut ? timedOut : error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}

/** What one note turn needs: the API's adapter and note wire, the working context, the request fields. */
export interface NoteTurn<Types extends AgentConversationTypes> {
  adapter: ConversationAdapter<Types>;
  wire: NoteWire<Types>;
  settings: ResolvedNoteBeforeCompaction;
  /** The working context the compaction is about to compact. */
  messages: readonly Message[];
  /** The fields of the `send` that comes next, so that the note turn asks the same model. */
  request: Partial<Types['request']> | undefined;
  /** Adds the conversation's own tools: a history with calls of them needs them defined. */
  withOwnTools: (body: Types['body']) => Types['body'];
  signal: AbortSignal | undefined;
}

/**
 * Runs the note turn: the working context and the prompt, with the API's output limit set to `maximumTokens`
 * and no tool calls, aborted after `timeoutMs`. Returns the note's text, trimmed (empty when the model wrote
 * none); throws what the call threw, or a `NoteTimeoutError`.
 */
export async function runNoteTurn<Types extends AgentConversationTypes>(
  turn: NoteTurn<Types>,
): Promise<string> {
  const { adapter, wire, settings } = turn;
  const messages = [...turn.messages, notePromptMessage(settings.prompt)];
  const body = wire.body(turn.withOwnTools(adapter.body(messages, turn.request)), settings.maximumTokens);
  const exchange = await withTimeout(settings.timeoutMs, turn.signal, (signal) => adapter.send(body, signal));
  return wire.text(exchange.response).trim();
}
