import type { ArchivedItem } from '../specs/compaction-strategy-v1.js';
import type { RuleViolation } from './rule-violation.js';

/** What a handle may be: short enough to quote in a placeholder, plain enough to type in a tool call. */
const handleShape = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The ways a strategy's archived items break the `archive-valid` rule: not a list, an item that is not a
 * handle, label and text, or one handle given two different texts (the model would recall the wrong one).
 */
export function archiveViolations(archived: unknown): RuleViolation[] {
  if (archived === undefined) return [];
  const violation = (message: string): RuleViolation => ({ rule: 'archive-valid', message });
  if (!Array.isArray(archived)) return [violation('`archived` must be a list of items')];
  const texts = new Map<string, string>();
  const violations: RuleViolation[] = [];
  for (const [index, item] of (archived as unknown[]).entries()) {
    if (!isArchivedItem(item)) {
      violations.push(
        violation(`archived item ${index} needs a handle (${handleShape.source}), label and text`),
      );
    } else if ((texts.get(item.handle) ?? item.text) !== item.text) {
      violations.push(violation(`handle "${item.handle}" names two different texts`));
    } else {
      texts.set(item.handle, item.text);
    }
  }
  return violations;
}

function isArchivedItem(item: unknown): item is ArchivedItem {
  if (typeof item !== 'object' || item === null) return false;
  const { handle, label, text } = item as Record<string, unknown>;
  return (
    typeof handle === 'string' &&
    handleShape.test(handle) &&
    typeof label === 'string' &&
    typeof text === 'string'
  );
}
