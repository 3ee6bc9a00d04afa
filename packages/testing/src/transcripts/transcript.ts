import type { JSONObject, Message, Repair } from '@compaction/core';

/** The formats of the shared real transcripts. */
export type TranscriptSource = 'mini-swe-agent' | 'swe-agent' | 'tau-bench' | 'claude-code' | 'openhands';

/** One real conversation, converted to core messages for tests, benchmarks and the evaluation. */
export interface Transcript {
  /** `<source>/<file or entry>`, unique across the folder. */
  name: string;
  source: TranscriptSource;
  /** The file it was read from. */
  path: string;
  messages: Message[];
  /** Repairs needed to make the conversation valid (a recorded run can stop mid-call). */
  repairs: Repair[];
  /** Source-specific facts, such as tau-bench's expected actions. */
  details?: JSONObject;
  /**
   * When each assistant message was produced, in milliseconds since the epoch, by message index (undefined
   * for other messages); present where the source records it (mini-swe-agent).
   */
  callTimes?: (number | undefined)[];
}
