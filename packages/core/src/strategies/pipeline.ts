import { BudgetUnreachableError } from '../errors/budget-unreachable-error.js';
import { type JSONObject, present } from '../json.js';
import type { OptionsSchema } from '../options/options-schema.js';
import { defineStrategy } from '../registry/strategy-definition.js';
import type { CompactionOutput, CompactionStrategy } from '../specs/compaction-strategy-v1.js';
import type { StrategyConfig } from '../specs/strategy-config.js';
import { assertValidHistory } from '../turns/repair-history.js';

/** Options of the `pipeline` strategy. */
export interface PipelineOptions {
  /** The stages, run in order until the target is met. */
  stages: StrategyConfig[];
}

declare module '../specs/strategy-config.js' {
  interface StrategyOptionsByName {
    pipeline: PipelineOptions;
  }
}

/**
 * Runs strategies in order and stops as soon as the history is at or under the target, so cheap stages
 * (such as truncating old tool results) spare the costly ones (such as summarizing). Each stage receives the
 * previous stage's output. Stages before the last are given the target but not the hard limit, so a stage
 * that gets only part of the way still passes its progress on; the pipeline's result must meet the limit or
 * it throws {@link BudgetUnreachableError} with the pipeline's target and the best any stage reached (the
 * last stage's own error, unchanged, when it came lowest). `details.stages` records each stage that ran with
 * its token counts.
 */
export function createPipeline(stages: readonly CompactionStrategy[]): CompactionStrategy {
  return {
    specificationVersion: 'v1',
    name: 'pipeline',
    async compact(input): Promise<CompactionOutput> {
      const { counter, budget } = input;
      assertValidHistory(input.messages);
      let messages = [...input.messages];
      let tokens = counter.estimate(messages);
      const summaries: string[] = [];
      const stageDetails: JSONObject[] = [];
      for (const [index, stage] of stages.entries()) {
        if (tokens <= budget.target) break;
        input.abortSignal?.throwIfAborted();
        // Only the pipeline as a whole must meet the hard limit: an earlier stage that gets part of the way
        // hands its progress on to the next one instead of failing the run.
        const isLast = index === stages.length - 1;
        const stageBudget = isLast ? budget : { limit: Number.MAX_SAFE_INTEGER, target: budget.target };
        let output: CompactionOutput;
        try {
          output = await stage.compact({ ...input, messages, budget: stageBudget });
        } catch (error) {
          if (!BudgetUnreachableError.isInstance(error)) throw error;
          if (!isLast) continue;
          // The earlier stages' progress already meets the limit: it is the pipeline's result.
          if (tokens <= budget.limit) break;
          if (error.best <= tokens) throw error;
          throw unreachable(budget, tokens, stages, error);
        }
        const tokensAfter = counter.estimate(output.messages);
        stageDetails.push({
          name: stage.name,
          tokensBefore: tokens,
          tokensAfter,
          messagesBefore: messages.length,
          messagesAfter: output.messages.length,
          ...(output.details === undefined ? {} : { details: output.details }),
        });
        if (output.summary !== undefined) summaries.push(output.summary);
        messages = output.messages;
        tokens = tokensAfter;
      }
      if (tokens > budget.limit) throw unreachable(budget, tokens, stages);
      return {
        messages,
        ...(summaries.length > 0 ? { summary: summaries.join('\n\n') } : {}),
        details: { stages: stageDetails },
      };
    },
  };
}

/** The pipeline's own error when its stages together got no lower than `best`. */
function unreachable(
  budget: { limit: number; target: number },
  best: number,
  stages: readonly CompactionStrategy[],
  cause?: unknown,
): BudgetUnreachableError {
  const names = stages.map((stage) => stage.name).join(', ');
  return new BudgetUnreachableError({
    target: budget.target,
    best,
    limit: budget.limit,
    reason: `stages ${names || '(none)'} ran out`,
    ...present({ cause }),
  });
}

/** The JSON Schema of one strategy entry in a config. */
export const strategyConfigSchema: OptionsSchema = {
  anyOf: [
    { type: 'string', minLength: 1 },
    {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, options: { type: 'object' } },
      required: ['name'],
      additionalProperties: false,
    },
  ],
  description: 'a strategy name, or { "name", "options" }',
};

/** The `pipeline` strategy definition, registered in every registry. */
export const pipelineDefinition = defineStrategy<PipelineOptions>({
  specificationVersion: 'v1',
  name: 'pipeline',
  description: 'Runs strategies in order and stops as soon as the target is met.',
  optionsSchema: {
    type: 'object',
    properties: {
      stages: {
        type: 'array',
        items: strategyConfigSchema,
        minItems: 1,
        description: 'Strategies to run, in order.',
      },
    },
    required: ['stages'],
    additionalProperties: false,
  },
  async create(options, context) {
    const stages = await Promise.all(options.stages.map((stage) => context.registry.resolve(stage, context)));
    return createPipeline(stages);
  },
});
