/**
 * The rules every compaction result must keep: well-formed messages; tool results right after their calls,
 * and answered calls still answered; system, pinned, opening (`openingIndexes`) and newest user messages kept
 * verbatim and in order; a user turn first when the input had one; reasoning first in each assistant turn; no
 * removal marker last; every message an unchanged input object or marked with `metadata.compaction.kind`; within the limit; with
 * archiving, archived items well formed and one text per handle.
 */
export type CompactionRule =
  | 'valid-messages'
  | 'tool-pairing'
  | 'system-kept'
  | 'pinned-kept'
  | 'opening-kept'
  | 'latest-user-kept'
  | 'starts-with-user'
  | 'reasoning-first'
  | 'marker-not-last'
  | 'unmarked-change'
  | 'within-limit'
  | 'archive-valid';

/** One rule a compaction result breaks. */
export interface RuleViolation {
  rule: CompactionRule;
  message: string;
  /** Index in the result of the message concerned, when there is one. */
  index?: number;
}
