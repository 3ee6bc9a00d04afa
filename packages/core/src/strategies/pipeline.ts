import { BudgetUnreachableError } from '../errors/budget-unreachable-error.js';
import { type JSONObject, present } from '../json.js';
import type { OptionsSchema } from '../options/options-schema.js';
import { defineStrategy } from '../registry/strategy-definition.js';
import { strategyNeedsProvider } from '../registry/strategy-needs-provider.js';
import type { ArchivedItem, CompactionOutput, CompactionStrategy } from '../specs/compaction-strategy-v1.js';
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
 * Runs strategies in order, each on the previous one's output, until the target is met, so cheap stages spare
 * costly ones. Only the last stage is held to the hard limit; a result over it throws
 * {@link BudgetUnreachableError}. `details.stages` records each stage that ran, with token counts; `archived`
 * holds every stage's archived items.
 */
export function createPipeline(stages: readonly CompactionStrategy[]): CompactionStrategy {
  const names = stages.map((stage) => stage.name).join(', ') || '(none)';
  return {
    specificationVersion: 'v1',
    name: 'pipeline',
    async compact(input): Promise<CompactionOutput> {
      const { counter, budget } = input;
      assertValidHistory(input.messages);
      let messages = [...input.messages];
      let tokens = counter.estimate(messages);
      const summaries: string[] = [];
      const details: JSONObject[] = [];
      // Every stage's items stay: a later stage may drop a placeholder whose handle its own item then names.
      const archived: ArchivedItem[] = [];
      const unreachable = (cause?: unknown) => {
        const reason = `stages ${names} ran out`;
        return new BudgetUnreachableError({ ...budget, best: tokens, reason, ...present({ cause }) });
      };
      for (const [index, stage] of stages.entries()) {
        if (tokens <= budget.target) break;
        input.abortSignal?.throwIfAborted();
        // An earlier stage that gets part of the way hands its progress on instead of failing the run.
        const isLast = index === stages.length - 1;
        const stageBudget = isLast ? budget : { limit: Number.MAX_SAFE_INTEGER, target: budget.target };
        let output: CompactionOutput;
        try {
          const stageInput = { ...input, messages, budget: stageBudget };
          const step = { kind: 'stage', name: stage.name, index } as const;
          output = await (input.observe?.(step, (observe) => stage.compact({ ...stageInput, observe })) ??
            stage.compact(stageInput));
        } catch (error) {
          if (!BudgetUnreachableError.isInstance(error)) throw error;
          if (!isLast) continue;
          // The earlier stages' progress already meets the limit: it is the pipeline's result.
          if (tokens <= budget.limit) break;
          throw error.best <= tokens ? error : unreachable(error);
        }
        const tokensAfter = counter.estimate(output.messages);
        details.push({
          name: stage.name,
          tokensBefore: tokens,
          tokensAfter,
          messagesBefore: messages.length,
          messagesAfter: output.messages.length,
          ...present({ details: output.details }),
        });
        if (output.summary !== undefined) summaries.push(output.summary);
        archived.push(...(output.archived ?? []));
        ({ messages } = output);
        tokens = tokensAfter;
      }
      if (tokens > budget.limit) throw unreachable();
      const summary = summaries.length > 0 ? { summary: summaries.join('\n\n') } : {};
      const archive = archived.length > 0 ? { archived } : {};
      return { messages, ...summary, details: { stages: details }, ...archive };
    },
  };
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
  needsProvider: (options, context) => strategyNeedsProvider(context.registry, options.stages),
});
