import { reachableFloor } from '@compaction/testing';
import { describeConformance, describeTranscriptPlans } from '@compaction/testing/vitest';
import { createPruning } from './pruning.js';

// By design the newest `minRecentTurns` turns (5 by default) give way only to the limit, not to the target.
describeConformance('pruning', {
  strategy: () => createPruning(),
  floor: (messages, counter, settings) => reachableFloor(messages, counter, { recentTurns: 5, ...settings }),
});
describeConformance('pruning without the original task, recent turns or markers', {
  strategy: () => createPruning({ keepOriginalTask: false, minRecentTurns: 0, marker: false }),
  floor: (messages, counter, settings) => reachableFloor(messages, counter, settings),
});

// The plan pinned as the Compactor pins it (keeps-the-plan above), on the real transcripts too.
describeTranscriptPlans('pruning', createPruning());
