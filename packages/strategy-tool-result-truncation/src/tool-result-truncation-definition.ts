import { defineStrategy } from '@compaction/core';
import { createToolResultTruncation } from './tool-result-truncation.js';
import {
  type ToolResultTruncationOptions,
  toolResultTruncationOptionsSchema,
} from './tool-result-truncation-options.js';

/** The `tool-result-truncation` strategy definition, default-exported so the registry can load it by name. */
export const toolResultTruncationDefinition = defineStrategy<ToolResultTruncationOptions>({
  specificationVersion: 'v1',
  name: 'tool-result-truncation',
  description: 'Shortens or masks old tool results, oldest first, and keeps the tool calls.',
  optionsSchema: toolResultTruncationOptionsSchema,
  create: (options) => createToolResultTruncation(options),
});
