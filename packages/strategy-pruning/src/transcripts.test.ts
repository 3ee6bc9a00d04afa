import { describeTranscriptTargets } from './__fixtures__/transcript-targets.js';
import { createPruning } from './pruning.js';

describeTranscriptTargets('pruning', createPruning());
