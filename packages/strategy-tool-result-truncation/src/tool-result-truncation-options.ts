import type { OptionsSchema } from '@compaction/core';

/** Options of the `tool-result-truncation` strategy. */
export interface ToolResultTruncationOptions {
  /**
   * `truncate` keeps the start and the end of an old result with a note saying how much was omitted;
   * `mask` replaces it with a short placeholder naming the tool and the size removed. Default `truncate`.
   */
  mode?: 'truncate' | 'mask';
  /** The newest tool results left untouched. Default 3. */
  keepRecent?: number;
  /** Old results larger than this many tokens are shortened (to about this size when truncating). Default 200. */
  maxResultTokens?: number;
  /** Tools whose results are never shortened. Default none. */
  exemptTools?: string[];
  /** Also replace the inputs of old tool calls larger than `maxResultTokens` with a note. Default `false`. */
  clearToolInputs?: boolean;
  /**
   * Fewest tokens a run must free to change anything. Every change breaks the provider's prompt cache, so
   * smaller edits are not worth it; ignored when the history is over the hard limit. Default 0.
   */
  minTokensSaved?: number;
}

declare module '@compaction/core' {
  interface StrategyOptionsByName {
    'tool-result-truncation': ToolResultTruncationOptions;
  }
}

/** The JSON Schema of {@link ToolResultTruncationOptions}, with the defaults the registry fills in. */
export const toolResultTruncationOptionsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    mode: {
      enum: ['truncate', 'mask'],
      default: 'truncate',
      description: 'truncate: keep the start and end of old results; mask: replace them with a placeholder.',
    },
    keepRecent: {
      type: 'integer',
      minimum: 0,
      default: 3,
      description: 'The newest tool results left untouched.',
    },
    maxResultTokens: {
      type: 'integer',
      minimum: 0,
      default: 200,
      description:
        'Old results larger than this many tokens are shortened (to about this size when truncating).',
    },
    exemptTools: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      default: [],
      description: 'Tools whose results are never shortened.',
    },
    clearToolInputs: {
      type: 'boolean',
      default: false,
      description: 'Also replace the inputs of old tool calls larger than maxResultTokens with a note.',
    },
    minTokensSaved: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description: 'Fewest tokens a run must free to change anything (ignored over the hard limit).',
    },
  },
  additionalProperties: false,
};
