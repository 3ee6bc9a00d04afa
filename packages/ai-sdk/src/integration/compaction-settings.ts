import { type ResolvedNoteBeforeCompaction, resolveNoteBeforeCompaction } from '@compaction/agent-loop';
import { type Compactor, type CompactorSettings, createCompactor, type Provider } from '@compaction/core';
import { CompactRequests } from './compaction-compact-tool.js';
import type { CompactionNoteSettings } from './compaction-note.js';

/** Settings shared by {@link compactionPrepareStep} and {@link compactionMiddleware}. */
export interface CompactionIntegrationOptions {
  /** The session compactions are recorded under (events, store, per-session serialization). Default `default`. */
  sessionId?: string;
  /**
   * The conversation every call belongs to, when one integration serves one conversation. Without it, a call
   * continues the conversation whose messages it starts with, or starts a new one: two conversations never
   * merge, but a conversation whose earlier messages the caller changes starts over. The middleware also
   * reads a per-call id from `providerOptions.compaction.conversationId`, which takes precedence.
   */
  conversationId?: string;
  /**
   * Makes the integration's `compactTool` a `compact` tool to give the model (under the key `compact`): when
   * the model calls it, the next step compacts first, forced (even under the target), with the instructions
   * the model gave. Default false.
   */
  compactTool?: boolean;
  /**
   * Middleware only: before each automatic compaction, one extra call of the model asks it for a note of what
   * it must keep; the note joins the history as a pinned user message, so the compaction keeps it. `true` for
   * the defaults; `onNote` hears how each note turn ended (a failure never throws). Off by default.
   */
  beforeCompaction?: boolean | CompactionNoteSettings;
}

/**
 * What the integrations accept: a {@link Compactor}, `{ compactor }` with options, or the settings to create
 * one (`strategy`, `budget`, ...) with options.
 */
export type CompactionIntegrationSettings =
  | Compactor
  | ({ compactor: Compactor } & CompactionIntegrationOptions)
  | (CompactorSettings & CompactionIntegrationOptions);

/** Resolves the accepted settings to a compactor and the options. */
export function resolveCompactionSettings(settings: CompactionIntegrationSettings): {
  compactor: Compactor;
  sessionId?: string;
  /**
   * The conversation every call belongs to, when one integration serves one conversation. Without it, a call
   * continues the conversation whose messages it starts with, or starts a new one: two conversations never
   * merge, but a conversation whose earlier messages the caller changes starts over. The middleware also
   * reads a per-call id from `providerOptions.compaction.conversationId`, which takes precedence.
   */
  conversationId?: string;
  /** The provider of the settings a compactor was created from: it recognises its own overflow refusals too. */
  provider?: Provider;
  /** With `compactTool`: the tool and the compactions it was asked for. */
  compactRequests?: CompactRequests;
  /** With `beforeCompaction`: the note turn, resolved. */
  notes?: ResolvedNoteBeforeCompaction & Pick<CompactionNoteSettings, 'onNote'>;
} {
  if (isCompactor(settings)) return { compactor: settings };
  if ('compactor' in settings) {
    return { compactor: settings.compactor, ...sessionOf(settings), ...requestsOf(settings) };
  }
  const {
    sessionId: _sessionId,
    compactTool: _compactTool,
    beforeCompaction: _beforeCompaction,
    ...compactorSettings
  } = settings;
  return {
    compactor: createCompactor(compactorSettings),
    ...sessionOf(settings),
    ...requestsOf(settings),
    ...(settings.provider === undefined ? {} : { provider: settings.provider }),
  };
}

/** The compact tool and the note turn of the settings, when they ask for them. */
function requestsOf(options: CompactionIntegrationOptions) {
  const notes = resolveNoteBeforeCompaction(options.beforeCompaction);
  const onNote = typeof options.beforeCompaction === 'object' ? options.beforeCompaction.onNote : undefined;
  return {
    ...(options.compactTool === true ? { compactRequests: new CompactRequests() } : {}),
    ...(notes === undefined ? {} : { notes: onNote === undefined ? notes : { ...notes, onNote } }),
  };
}

function sessionOf(options: CompactionIntegrationOptions): { sessionId?: string } {
  return options.sessionId === undefined ? {} : { sessionId: options.sessionId };
}

/** Duck-typed, so a compactor from another copy of the core package is accepted too. */
function isCompactor(value: unknown): value is Compactor {
  const candidate = value as Partial<Compactor>;
  return (
    typeof candidate.prepare === 'function' &&
    typeof candidate.recover === 'function' &&
    typeof candidate.recordUsage === 'function'
  );
}
