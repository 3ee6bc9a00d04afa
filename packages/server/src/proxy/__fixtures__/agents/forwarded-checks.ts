import {
  type ContractViolation,
  compactedRequestViolations,
  type ProviderRequestFormat,
} from '@compaction/testing';
import { listKey } from './agent-fixture.js';

/** A note that says earlier messages were left out ("[3 earlier messages skipped ...]"). */
const notePattern = /earlier (?:messages?|items?|turns?)[^\]"]*?(?:skipped|removed|omitted|left out)/gi;

const countNotes = (value: unknown) => (JSON.stringify(value).match(notePattern) ?? []).length;

export const itemsOf = (format: ProviderRequestFormat, body: Record<string, unknown>): unknown[] => {
  const list = body[listKey(format)];
  return typeof list === 'string' ? [list] : ((list as unknown[] | undefined) ?? []);
};

/**
 * What names an item: for a tool result, its type and the call it answers (a proxy may shorten its text); for
 * anything else, the whole item, which must then be kept verbatim.
 */
export function identityOf(item: unknown): string {
  if (item === null || typeof item !== 'object') return JSON.stringify(item);
  const record = item as Record<string, unknown>;
  const content = Array.isArray(record.content) ? (record.content as Record<string, unknown>[]) : [];
  const answered = content.filter((block) => block?.type === 'tool_result').map((block) => block.tool_use_id);
  if (answered.length > 0) return JSON.stringify(['tool_result', record.role, answered]);
  if (typeof record.tool_call_id === 'string') return JSON.stringify(['tool', record.tool_call_id]);
  if (typeof record.type === 'string' && record.type.endsWith('_output')) {
    return JSON.stringify([record.type, record.call_id ?? record.id]);
  }
  return JSON.stringify(item);
}

/** Runs of the original's items that the forwarded request does not hold verbatim. */
export function removedSpans(originalItems: readonly unknown[], forwardedItems: readonly unknown[]): number {
  const kept = new Set<number>();
  let position = 0;
  for (const item of forwardedItems) {
    const text = JSON.stringify(item);
    for (let index = position; index < originalItems.length; index++) {
      if (JSON.stringify(originalItems[index]) === text) {
        kept.add(index);
        position = index + 1;
        break;
      }
    }
  }
  let spans = 0;
  for (let index = 0; index < originalItems.length; index++) {
    if (!kept.has(index) && (index === 0 || kept.has(index - 1))) spans++;
  }
  return spans;
}

/** What one forwarded request kept and broke, compared with what the agent sent. */
export interface ForwardedCheck {
  /** Rules the forwarded request breaks that the original keeps. */
  violations: ContractViolation[];
  taskKept: boolean;
  /** Whether the agent's newest turn is in the forwarded request (see {@link identityOf}). */
  newestKept: boolean;
  /** Removal notes the proxy added, and the spans it removed. */
  notes: number;
  spans: number;
  /** The most removal notes in one item. */
  notesInOneItem: number;
}

export function checkForwarded(
  format: ProviderRequestFormat,
  task: string,
  original: Record<string, unknown>,
  forwarded: Record<string, unknown>,
): ForwardedCheck {
  const own = new Set(
    compactedRequestViolations(format, original, original).map((violation) => violation.rule),
  );
  const originalItems = itemsOf(format, original);
  const forwardedItems = itemsOf(format, forwarded);
  return {
    violations: compactedRequestViolations(format, original, forwarded).filter(
      (violation) => !own.has(violation.rule),
    ),
    taskKept: JSON.stringify(forwarded).includes(JSON.stringify(task).slice(1, -1)),
    newestKept:
      originalItems.length === 0 ||
      forwardedItems.some((item) => identityOf(item) === identityOf(originalItems.at(-1))),
    notes: countNotes(forwardedItems) - countNotes(originalItems),
    spans: removedSpans(originalItems, forwardedItems),
    notesInOneItem: Math.max(0, ...forwardedItems.map(countNotes)),
  };
}

/**
 * The value without its cache marks (`cache_control`): a mark says where the provider may store a prefix, it is
 * not part of what the prefix holds, so an agent that moves its marks forward each request (as Claude Code does)
 * still reads the prefix it cached.
 */
function withoutCacheMarks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheMarks);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'cache_control')
      .map(([key, entry]) => [key, withoutCacheMarks(entry)]),
  );
}

/**
 * Whether each request after the first starts with the whole request before it (system, tools, items), its
 * cache marks aside.
 */
export function prefixHeld(
  format: ProviderRequestFormat,
  bodies: readonly Record<string, unknown>[],
): boolean[] {
  const blocks = bodies.map((body) =>
    [
      format === 'anthropic' ? [body.system, body.tools] : [body.instructions, body.tools],
      ...itemsOf(format, body),
    ].map((block) => JSON.stringify(withoutCacheMarks(block))),
  );
  return blocks.slice(1).map((later, index) => {
    const earlier = blocks[index]!;
    return earlier.every((block, position) => later[position] === block);
  });
}
