import { describeTranscriptTargets } from '@compaction/testing/vitest';
import { createPruning } from './pruning.js';

describeTranscriptTargets('pruning', createPruning());
