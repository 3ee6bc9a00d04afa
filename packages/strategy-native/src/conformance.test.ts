import { type FloorOf, reachableFloor } from '@compaction/testing';
import { describeConformance } from '@compaction/testing/vitest';
import { countingCompaction, localFallback } from './__fixtures__/summary-compaction.js';
import { createNative } from './create-native.js';

// The fallback's floor: pruning keeps the newest 5 turns until only the limit makes them give way (markers that
// name a recall handle cost more when archiving).
const floor: FloorOf = (messages, counter, settings) =>
  reachableFloor(messages, counter, { recentTurns: 5, ...settings });

describeConformance('native, where the model has native compaction', {
  strategy: () => createNative({ nativeCompaction: countingCompaction(), fallback: localFallback() }),
  floor,
  // The provider's compaction replaces the span from the system messages on, the opening too, as the API
  // reads it; the local fallback keeps the opening and merges its markers (the next suite).
  skip: {
    'keeps-the-opening': "the provider's own compaction stands for the opening",
    'merges-with-earlier-compactions': "the provider's own compaction stands for the opening",
  },
});
describeConformance('native, falling back where the model has none', {
  strategy: () =>
    createNative({ nativeCompaction: countingCompaction({ supported: false }), fallback: localFallback() }),
  floor,
});
