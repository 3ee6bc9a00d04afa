import { describeTargetFill } from '@compaction/testing/vitest';
import { createPruning } from './pruning.js';

describeTargetFill('pruning', { strategy: () => createPruning() });
describeTargetFill('pruning', { strategy: () => createPruning(), archive: true, numRuns: 100 });
describeTargetFill('pruning without recent turns or markers', {
  strategy: () => createPruning({ minRecentTurns: 0, marker: false }),
});
