import {
  assertValidHistory,
  type CompactionInput,
  type CompactionOutput,
  type CompactionStrategy,
  type JSONObject,
  type Message,
} from '@compaction/core';
import { assembleWithinLimit, type KeptTurnsSelection, keptTurnsOutput } from './assemble-within-limit.js';
import { keepTaskWhenItReturns } from './keep-returning-task.js';
import { type RemovalMarkerSettings, removalMarkerCost } from './kept-turns.js';
import { planTurns, type TurnPlan } from './turn-plan.js';

/** How a strategy that keeps or drops whole turns plans its turns and marks what it removes. */
export interface WholeTurnsSettings {
  /** The strategy's name, recorded on its markers. */
  strategy: string;
  /** Whether to leave a marker message where messages were removed. */
  markers: boolean;
  /** The marker's text for `count` removed messages. */
  markerText: (count: number) => string;
}

/** Where a strategy that keeps or drops whole turns starts from. */
export interface WholeTurnsStart {
  /** The turn plan of the history, which was checked to be valid. */
  plan: TurnPlan;
  /** The settings of the markers left where turns are removed. */
  markers: RemovalMarkerSettings;
  /** An upper bound of what one marker costs (see {@link removalMarkerCost}). */
  markerCost: number;
}

/**
 * The first step of every strategy that keeps or drops whole turns: checks the history (throwing the core's
 * typed errors for an invalid one), plans its turns, and settles the removal markers and what one costs.
 */
export function startWholeTurns(
  {
    messages,
    counter,
    round,
    archive = false,
  }: Pick<CompactionInput, 'messages' | 'counter' | 'round' | 'archive'>,
  settings: WholeTurnsSettings,
): WholeTurnsStart {
  assertValidHistory(messages);
  const plan = planTurns(messages, counter);
  // Archiving leaves markers whatever the option says: they are what names the removed messages.
  const markers: RemovalMarkerSettings = {
    markers: settings.markers || archive,
    text: settings.markerText,
    round,
    strategy: settings.strategy,
    archive,
  };
  return { plan, markers, markerCost: removalMarkerCost(counter, markers) };
}

/**
 * A strategy that keeps or drops whole turns, named `settings.strategy`: each call checks the history, plans
 * its turns and settles the markers and what one costs, then runs `compact` with what it started from.
 */
export function createWholeTurnsStrategy(
  settings: WholeTurnsSettings,
  compact: (input: CompactionInput, start: WholeTurnsStart) => CompactionOutput,
): CompactionStrategy {
  return {
    specificationVersion: 'v1',
    name: settings.strategy,
    async compact(input) {
      return compact(input, startWholeTurns(input, settings));
    },
  };
}

/** The output of a strategy that keeps or drops whole turns when nothing needs removing: the same messages. */
export function nothingRemovedOutput(messages: readonly Message[]): CompactionOutput {
  return { messages: [...messages], details: { removedMessages: 0, removedTurns: 0 } };
}

/** The turns a strategy keeps on one plan (see {@link KeptTurnsSelection}). */
export type TurnChoice = Pick<KeptTurnsSelection, 'kept' | 'replacements' | 'dropBefore'>;

/**
 * The rest of every strategy that keeps or drops whole turns, once started: `choose` picks the turns to keep
 * on a plan (or returns an output of its own, such as {@link nothingRemovedOutput}); the choice is assembled
 * within the limit and, when it is over the target without the original task, chosen again with the task
 * kept (see {@link keepTaskWhenItReturns}). `extraDetails` join the output's details.
 */
export function keepChosenTurns(
  { messages, counter, budget }: Pick<CompactionInput, 'messages' | 'counter' | 'budget'>,
  { plan, markers }: WholeTurnsStart,
  choose: (plan: TurnPlan) => TurnChoice | CompactionOutput,
  extraDetails: JSONObject = {},
): CompactionOutput {
  return keepTaskWhenItReturns(messages, plan, counter, budget.target, (attemptPlan) => {
    const choice = choose(attemptPlan);
    if ('messages' in choice) return choice;
    const assembled = assembleWithinLimit(
      { messages, plan: attemptPlan, markers, ...choice },
      counter,
      budget,
    );
    return keptTurnsOutput(assembled, extraDetails);
  });
}
