import { InMemoryCompactionStore } from '@compaction/core';
import { describeStoreConformance } from './store-suite.js';

// Core's in-memory store runs the same suite as every persistent store.
describeStoreConformance('in-memory', { create: () => new InMemoryCompactionStore() });
