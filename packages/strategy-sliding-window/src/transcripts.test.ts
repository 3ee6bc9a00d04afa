import { describeTranscriptTargets } from '@compaction/testing/vitest';
import { createSlidingWindow } from './sliding-window.js';

describeTranscriptTargets('sliding-window', createSlidingWindow());
