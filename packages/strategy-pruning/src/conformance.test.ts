import { describeConformance } from '@compaction/testing/vitest';
import { createPruning } from './pruning.js';

describeConformance('pruning', { strategy: () => createPruning() });
describeConformance('pruning without the original task, recent turns or markers', {
  strategy: () => createPruning({ keepOriginalTask: false, minRecentTurns: 0, marker: false }),
});
