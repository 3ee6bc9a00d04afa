/** The rules every compaction result must keep. */
export type CompactionRule =
  | 'valid-messages'
  | 'tool-pairing'
  | 'system-kept'
  | 'pinned-kept'
  | 'latest-user-kept'
  | 'starts-with-user'
  | 'reasoning-first'
  | 'marker-not-last'
  | 'unmarked-change'
  | 'within-limit';

/** One rule a compaction result breaks. */
export interface RuleViolation {
  rule: CompactionRule;
  message: string;
  /** Index in the result of the message concerned, when there is one. */
  index?: number;
}
