import { defineStrategy } from '@compaction/core';
import { createPruning } from './pruning.js';
import { type PruningOptions, pruningOptionsSchema } from './pruning-options.js';

/** The `pruning` strategy definition, default-exported so the registry can load the package by name. */
export const pruningDefinition = defineStrategy<PruningOptions>({
  specificationVersion: 'v1',
  name: 'pruning',
  description: 'Drops the oldest whole turns until the target is met, keeping the head and the newest turns.',
  optionsSchema: pruningOptionsSchema,
  create: (options) => createPruning(options),
});
