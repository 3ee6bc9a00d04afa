import { compactionMetadataOf, deepEqual } from '@compaction/core';
import type { ContractViolation } from './contract-violation.js';
import { isJSONRecord, type JSONRecord } from './json-record.js';

/** A `kind:id` key of a call, result or item, and where it stands. */
export interface LocatedKey {
  key: string;
  path: string;
}

/**
 * How one provider's request holds what every compaction must keep, read by {@link keptRuleViolations}. Both
 * requests it is given passed that provider's shape rule.
 */
export interface CompactedRequestReading {
  /** The conversation: messages or input items. */
  entries(request: JSONRecord): JSONRecord[];
  /** The request field holding the conversation, named when the newest user request is not kept. */
  listField: string;
  /** The top-level system prompt field (`system`, `instructions`) and what is said when it changes. */
  systemPrompt?: { field: string; changed: string };
  /** Whether an entry is a system-level message (system, developer). */
  isSystemMessage(entry: JSONRecord): boolean;
  /** What a system-level message is called in violations. */
  systemMessageName: string;
  /** The request settings (model, tools, ...) that compaction never changes. */
  settings: readonly string[];
  /**
   * How many entries open the conversation before the first model entry (an assistant message, or in
   * Responses any item the model produced): the opening, the task whole, which compaction keeps verbatim.
   */
  openingLength(entries: readonly JSONRecord[]): number;
  /** An entry as compared for the opening, when a format writes one thing two ways (a string content). */
  comparable?(entry: JSONRecord): unknown;
  /**
   * The user-written content (as a list of parts) of every user message that has any, in order: tool
   * results and the notes and summaries of earlier compactions ({@link isCompactionNote}) set aside.
   */
  userRequests(entries: readonly JSONRecord[]): unknown[][];
  /** The `kind:id` keys of every call, result and item the conversation holds. */
  idKeys(entries: readonly JSONRecord[]): LocatedKey[];
}

/**
 * The rules every provider keeps between a request and its compaction: the system prompt and system-level
 * messages, the opening (every entry before the first model entry), the settings and the newest user request
 * kept verbatim, and no id invented.
 */
export function keptRuleViolations(
  reading: CompactedRequestReading,
  original: JSONRecord,
  compacted: JSONRecord,
): ContractViolation[] {
  const violations: ContractViolation[] = [];
  const originalEntries = reading.entries(original);
  const compactedEntries = reading.entries(compacted);
  const prompt = reading.systemPrompt;
  if (prompt !== undefined && !deepEqual(original[prompt.field], compacted[prompt.field])) {
    violations.push({ rule: 'compacted.system-kept', path: prompt.field, message: prompt.changed });
  }
  systemMessagesKept(
    originalEntries.filter(reading.isSystemMessage),
    compactedEntries.filter(reading.isSystemMessage),
    reading.systemMessageName,
    violations,
  );
  // System-level messages of the opening are held to `compacted.system-kept`, so reported once.
  const comparable = reading.comparable ?? ((entry: JSONRecord) => entry);
  openingKept(
    originalEntries
      .slice(0, reading.openingLength(originalEntries))
      .map((entry, index) => ({ entry, index }))
      // A note or summary an earlier compaction put in the opening is no part of the task: the next
      // compaction merges with it (core's `openingIndexes` sets it aside the same way).
      .filter(({ entry }) => !reading.isSystemMessage(entry) && !isNoteMessage(entry))
      .map(({ entry, index }) => ({ entry: comparable(entry), index })),
    compactedEntries.map(comparable),
    reading.listField,
    violations,
  );
  settingsKept(original, compacted, reading.settings, violations);
  newestUserRequestKept(
    reading.userRequests(originalEntries),
    reading.userRequests(compactedEntries),
    reading.listField,
    violations,
  );
  nothingInvented(
    new Set(reading.idKeys(originalEntries).map(({ key }) => key)),
    reading.idKeys(compactedEntries),
    violations,
  );
  return violations;
}

/** Reports each system-level message of `originals` that `compacted` does not hold verbatim and in order. */
function systemMessagesKept(
  originals: readonly JSONRecord[],
  compacted: readonly JSONRecord[],
  what: string,
  violations: ContractViolation[],
): void {
  let from = 0;
  for (const original of originals) {
    const found = compacted.findIndex((candidate, index) => index >= from && deepEqual(candidate, original));
    if (found === -1) {
      violations.push({
        rule: 'compacted.system-kept',
        path: '',
        message: `the ${what} ${JSON.stringify(original).slice(0, 80)} is not kept verbatim and in order`,
      });
    } else {
      from = found + 1;
    }
  }
}

/**
 * Reports each entry of the original's opening that `compacted` does not hold verbatim and in order: the task
 * is the whole opening (Codex sends its developer messages, its environment and the task, in that order),
 * and nothing may be dropped from it or merged into it.
 */
function openingKept(
  opening: ReadonlyArray<{ entry: unknown; index: number }>,
  compacted: readonly unknown[],
  path: string,
  violations: ContractViolation[],
): void {
  let from = 0;
  opening.forEach(({ entry, index }) => {
    const found = compacted.findIndex(
      (candidate, at) => at >= from && deepEqual(withoutCacheMarks(candidate), withoutCacheMarks(entry)),
    );
    if (found === -1) {
      violations.push({
        rule: 'compacted.opening-kept',
        path: `${path}[${index}]`,
        message: `entry ${index} of the opening (before the first model turn) is not kept verbatim and in order`,
      });
    } else from = found + 1;
  });
}

/**
 * A value without its `cache_control` marks: a mark says where the provider caches, not what the model reads,
 * and a request may hold only four, so a compaction may move or drop the client's marks.
 */
export function withoutCacheMarks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheMarks);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'cache_control')
      .map(([key, inner]) => [key, withoutCacheMarks(inner)]),
  );
}

/** Reports each request setting (model, tools, ...) that differs after compaction. */
function settingsKept(
  original: JSONRecord,
  compacted: JSONRecord,
  keys: readonly string[],
  violations: ContractViolation[],
): void {
  for (const key of keys) {
    if (!deepEqual(original[key], compacted[key])) {
      violations.push({
        rule: 'compacted.settings-kept',
        path: key,
        message: `\`${key}\` changed in compaction`,
      });
    }
  }
}

/**
 * Reports that the newest user request did not come through verbatim as the newest one. Each argument lists
 * the user-written content (as a list of parts) of every user message, in order. Content the original does not
 * hold (a removal marker, a summary) is set aside in the compacted request: compaction may add such user
 * messages anywhere, or the provider may merge them into the turn of the request (with older requests before
 * it), but the newest of the original's user requests must still end the newest user content, unchanged.
 */
function newestUserRequestKept(
  originalRequests: ReadonlyArray<readonly unknown[]>,
  compactedRequests: ReadonlyArray<readonly unknown[]>,
  path: string,
  violations: ContractViolation[],
): void {
  const newest = originalRequests.at(-1);
  if (newest === undefined) return;
  const originalParts = originalRequests.flat();
  const fromOriginal = (part: unknown) => originalParts.some((candidate) => deepEqual(candidate, part));
  let kept: unknown[] | undefined;
  for (let index = compactedRequests.length - 1; index >= 0 && kept === undefined; index--) {
    const parts = compactedRequests[index]!.filter(fromOriginal);
    if (parts.length > 0) kept = parts;
  }
  // Anthropic merges consecutive user messages, so older requests may share the newest one's turn, before it.
  if (kept !== undefined && kept.length >= newest.length && deepEqual(kept.slice(-newest.length), newest))
    return;
  violations.push({
    rule: 'compacted.newest-user-request-kept',
    path,
    message:
      kept === undefined
        ? 'the newest user request is missing after compaction'
        : 'the newest user request is not kept verbatim as the newest one',
  });
}

/** Reports ids (`kind:id` keys) in the compacted request that the original did not have. */
function nothingInvented(
  originalKeys: ReadonlySet<string>,
  compacted: readonly LocatedKey[],
  violations: ContractViolation[],
): void {
  for (const { key, path } of compacted) {
    if (!originalKeys.has(key)) {
      violations.push({
        rule: 'compacted.nothing-invented',
        path,
        message: `${key} is not in the original request`,
      });
    }
  }
}

/**
 * Whether a text is a removal note or summary that a compaction wrote (`[3 earlier messages skipped ...]`,
 * `[Summary of 12 earlier messages, compaction round 2; ...]`), read the way core reads one from a request
 * that has no room for its metadata. Such text is no user request: a request compacted once holds its note
 * in a user message, and compacting it again merges that note into one with the new count and may move it,
 * while the user's own newest request is untouched.
 */
export function isCompactionNote(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  const kind = compactionMetadataOf({ role: 'user', content: [{ type: 'text', text }] })?.kind;
  return kind === 'marker' || kind === 'summary';
}

/** Whether an entry is a user message holding nothing but notes or summaries of earlier compactions. */
function isNoteMessage(entry: JSONRecord): boolean {
  if (entry.role !== 'user') return false;
  const content = entry.content;
  if (typeof content === 'string') return isCompactionNote(content);
  return (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every(
      (part) =>
        isJSONRecord(part) &&
        (part.type === 'text' || part.type === 'input_text') &&
        isCompactionNote(part.text),
    )
  );
}

/** How many messages stand before the first assistant message: the opening of a Messages or Chat request. */
export function openingBeforeAssistant(messages: readonly JSONRecord[]): number {
  const first = messages.findIndex((message) => message.role === 'assistant');
  return first === -1 ? messages.length : first;
}
