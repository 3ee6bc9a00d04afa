import { type Compactor, type CompactorSettings, createCompactor, type Provider } from '@compaction/core';

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
} {
  if (isCompactor(settings)) return { compactor: settings };
  if ('compactor' in settings) {
    return { compactor: settings.compactor, ...sessionOf(settings) };
  }
  const { sessionId: _sessionId, ...compactorSettings } = settings;
  return {
    compactor: createCompactor(compactorSettings),
    ...sessionOf(settings),
    ...(settings.provider === undefined ? {} : { provider: settings.provider }),
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
