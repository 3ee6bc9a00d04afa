import {
  type NoteBeforeCompaction,
  notePrefix,
  type ResolvedNoteBeforeCompaction,
  withTimeout,
} from '@compaction/agent-loop';
import { type Compactor, type Message, withCompactionMetadata } from '@compaction/core';
import type { LanguageModelCallOptions, LanguageModelPrompt, WrappedLanguageModel } from '../ai-sdk-types.js';

/**
 * How the note turn before an automatic compaction ended: the note `written` (its `text`), `empty` (the model
 * wrote nothing) or `failed` (the call failed or timed out: `error` says why). The compaction goes on either way.
 */
export interface CompactionNoteEvent {
  status: 'written' | 'empty' | 'failed';
  text?: string;
  error?: unknown;
}

/** The `beforeCompaction` setting of the AI SDK integration: the note turn, and who hears how it ended. */
export interface CompactionNoteSettings extends NoteBeforeCompaction {
  /** Told how each note turn ended; a failure is reported here, never thrown. */
  onNote?: (event: CompactionNoteEvent) => void;
}

/**
 * With `beforeCompaction`, when `messages` are about to be compacted automatically (and still fit the limit):
 * the note the model writes, as a pinned user message to put after them; undefined when there is none.
 */
export async function noteBeforeCompaction(input: {
  compactor: Compactor;
  sessionId: string | undefined;
  messages: readonly Message[];
  settings: ResolvedNoteBeforeCompaction & Pick<CompactionNoteSettings, 'onNote'>;
  /** Runs the note turn with the signal to stop it by; returns the model's text. */
  write: (signal: AbortSignal) => Promise<string>;
  signal: AbortSignal | undefined;
}): Promise<Message | undefined> {
  const { compactor, settings } = input;
  const check = compactor.check(
    input.messages,
    input.sessionId === undefined ? {} : { sessionId: input.sessionId },
  );
  if (!check.shouldCompact || check.reason === 'over-limit') return undefined;
  let text: string;
  try {
    text = (await withTimeout(settings.timeoutMs, input.signal, input.write)).trim();
  } catch (error) {
    if (input.signal?.aborted) throw error;
    settings.onNote?.({ status: 'failed', error });
    return undefined;
  }
  if (text === '') {
    settings.onNote?.({ status: 'empty' });
    return undefined;
  }
  settings.onNote?.({ status: 'written', text });
  const note: Message = { role: 'user', content: [{ type: 'text', text: `${notePrefix}${text}` }] };
  return withCompactionMetadata(note, { pinned: true });
}

/**
 * The note turn of the middleware: the call's own options (its tools, so the history's calls stay defined)
 * with the prompt after the messages, `maximumTokens` as the output limit and no tool calls.
 */
export async function writeNoteWithModel(
  model: WrappedLanguageModel,
  params: LanguageModelCallOptions,
  prompt: LanguageModelPrompt,
  settings: ResolvedNoteBeforeCompaction,
  signal: AbortSignal,
): Promise<string> {
  const asked: LanguageModelPrompt[number] = {
    role: 'user',
    content: [{ type: 'text', text: settings.prompt }],
  };
  const result = await model.doGenerate({
    ...params,
    prompt: [...prompt, asked],
    maxOutputTokens: settings.maximumTokens,
    ...((params.tools?.length ?? 0) > 0 ? { toolChoice: { type: 'none' as const } } : {}),
    abortSignal: signal,
  });
  return result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
