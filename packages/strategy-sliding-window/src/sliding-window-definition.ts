import { defineStrategy } from '@compaction/core';
import { createSlidingWindow } from './sliding-window.js';
import { type SlidingWindowOptions, slidingWindowOptionsSchema } from './sliding-window-options.js';

/** The `sliding-window` strategy definition, default-exported so the registry can load the package by name. */
export const slidingWindowDefinition = defineStrategy<SlidingWindowOptions>({
  specificationVersion: 'v1',
  name: 'sliding-window',
  description:
    'Keeps the head (system prompt, original task, pinned messages) and the newest turns that fit a token window.',
  optionsSchema: slidingWindowOptionsSchema,
  create: (options) => createSlidingWindow(options),
});
