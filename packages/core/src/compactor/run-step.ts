import type { CompactorObserver, CompactorStep, CompactorStepRunner } from './compaction-step.js';

/** One runner over every observer, the first outermost; `undefined` when there are none (nothing to build). */
export function composeObservers(
  observers: readonly CompactorObserver[] | undefined,
): CompactorStepRunner | undefined {
  if (observers === undefined || observers.length === 0) return undefined;
  return composeRunners(observers.map((observer) => observer.observe.bind(observer)));
}

function composeRunners(runners: readonly CompactorStepRunner[]): CompactorStepRunner {
  const [first, ...rest] = runners as [CompactorStepRunner, ...CompactorStepRunner[]];
  if (rest.length === 0) return first;
  const inner = composeRunners(rest);
  // Each observer hands its own runner for the inner steps: they are composed again, in the same order.
  return (step, run) => first(step, (outer) => inner(step, (others) => run(composeRunners([outer, others]))));
}

/** Runs `run` through the observers as `step`, or directly when there are none. */
export function runStep<Result>(
  observe: CompactorStepRunner | undefined,
  step: CompactorStep,
  run: (observe: CompactorStepRunner | undefined) => Promise<Result>,
): Promise<Result> {
  return observe === undefined ? run(undefined) : observe(step, run);
}
