import { describeTranscriptTargets } from './__fixtures__/transcript-targets.js';
import { createSlidingWindow } from './sliding-window.js';

describeTranscriptTargets('sliding-window', createSlidingWindow());
