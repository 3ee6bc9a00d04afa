import { deepEqual } from '@compaction/core';
import type { ContractViolation } from './contract-violation.js';
import type { JSONRecord } from './json-record.js';

/** Reports each system-level message of `originals` that `compacted` does not hold verbatim and in order. */
export function systemMessagesKept(
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

/** Reports each request setting (model, tools, ...) that differs after compaction. */
export function settingsKept(
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
export function newestUserRequestKept(
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
export function nothingInvented(
  originalKeys: ReadonlySet<string>,
  compacted: ReadonlyArray<{ key: string; path: string }>,
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
