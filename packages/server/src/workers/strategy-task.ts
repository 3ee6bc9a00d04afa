import type {
  ArchivedItem,
  CompactionBudget,
  CompactionTrigger,
  JSONObject,
  JSONValue,
  Message,
} from '@compaction/core';

/**
 * One strategy run for a compaction thread: the strategy a config names (or its fallback) on a history. The
 * history goes as JSON bytes, moved rather than copied: encoding it is much quicker for the event loop than the
 * structured clone of a large list of messages.
 */
export interface StrategyTask {
  kind: 'strategy';
  /** The config's entry of the strategy that runs (its `strategy` or `fallback`): the thread builds it by name. */
  entry: JSONValue;
  /** The history, `JSON.stringify(messages)` in UTF-8. */
  messages: Uint8Array;
  budget: CompactionBudget;
  trigger: CompactionTrigger;
  round: number;
  sessionId?: string;
  instructions?: string;
  archive?: boolean;
}

/** A message of a strategy's output: the input's own at that index (kept unchanged), or a new one. */
export type ReturnedMessage = number | Message;

/** What a thread answers to a {@link StrategyTask}: the strategy's output, or its error. */
export type StrategyAnswer =
  | {
      kind: 'output';
      messages: ReturnedMessage[];
      summary?: string;
      details?: JSONObject;
      archived?: ArchivedItem[];
    }
  | { kind: 'error'; error: CarriedError }
  /** The thread could not build the strategy (one that needs what only the server has): run it there. */
  | { kind: 'unbuildable'; reason: string };

/** An error as plain data, to be thrown again on the event loop as what the strategy threw. */
export interface CarriedError {
  name: string;
  message: string;
  /** The `Symbol.for` keys of its markers, so `CompactionError.isInstance` and its subclasses' still hold. */
  markers: string[];
  /** Its own fields (`code`, `violations`, `best`, ...). */
  fields: Record<string, unknown>;
}

/** An error thrown on a thread, as plain data (see {@link CarriedError}). */
export function carryError(error: unknown): CarriedError {
  if (!(error instanceof Error)) {
    return { name: 'Error', message: String(error), markers: [], fields: {} };
  }
  const markers = Object.getOwnPropertySymbols(error)
    .map((symbol) => Symbol.keyFor(symbol))
    .filter((key): key is string => key !== undefined);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === 'cause' || typeof value === 'function') continue;
    // Only plain data crosses threads; what does not survive JSON is left out.
    try {
      fields[key] = JSON.parse(JSON.stringify(value) ?? 'null');
    } catch {}
  }
  return { name: error.name, message: error.message, markers, fields };
}

/** The error a thread carried, built again: same name, message, code, fields and markers. */
export function rebuildError(carried: CarriedError): Error {
  const error = new Error(carried.message);
  Object.assign(error, carried.fields);
  Object.defineProperty(error, 'name', { value: carried.name, configurable: true, writable: true });
  for (const marker of carried.markers) Object.defineProperty(error, Symbol.for(marker), { value: true });
  return error;
}
