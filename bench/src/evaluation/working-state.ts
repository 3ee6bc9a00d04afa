import type { Message } from '@compaction/core';
import { fileStateProbes, measureFileStateRetention } from './file-state-probe.js';
import { checkSummaryLanguage } from './language-probe.js';
import { withPlanCalls } from './plan-calls.js';
import { latestPlan, measurePlanRetention } from './plan-probe.js';
import type { Policy } from './policies.js';
import { expectedLanguage } from './scripted-languages.js';
import type { TranslationLanguage } from './task-translations.js';
import { translateUserTurns } from './translate-transcript.js';
import type { EvaluationWindow } from './windows.js';
import { replayCompactions } from './working-state-replay.js';

/** A count of probes and how many were kept (or matched). */
export interface Tally {
  total: number;
  kept: number;
}

/** The transcript whose user turns the translation table holds. */
export const translatedTranscript = 'mini-swe-agent/django__django-16560';

/** The languages the user turns are translated into. */
export const translationLanguages: readonly TranslationLanguage[] = ['zh', 'es'];

/** A policy run with the working-state features on (the defaults) and off. */
export interface WorkingStatePair {
  /** Name in the table. */
  name: string;
  with: Policy;
  /** The policy with `language: 'en'` where its summarization takes the option, else the policy itself. */
  without: Policy;
  /** Whether `without` sets `language: 'en'`. */
  languageSwitched: boolean;
}

/**
 * A policy with the features (the defaults: the Compactor pins the latest plan, the summary is in the user's
 * language) and without them (`planTools: false`, and `language: 'en'` where the policy takes it).
 */
export function workingStatePair(policy: Policy): WorkingStatePair {
  const english = policy.withLanguage?.('en');
  return {
    name: policy.name,
    with: policy,
    without: english ?? policy,
    languageSwitched: english !== undefined,
  };
}

/** One row of the table: a policy with or without the features. */
export interface WorkingStateRow {
  policy: string;
  features: boolean;
  /** Whether the run without the features set `language: 'en'` (the policy takes the option). */
  languageSwitched: boolean;
  compactions: number;
  plan: Tally;
  fileState: Tally;
  /** By language of the translated user turns: compactions whose summary was in it; undefined when not run. */
  language: Partial<Record<TranslationLanguage, Tally>>;
}

/** What `pnpm evaluate` saves of the working-state probes, for the report and the README. */
export interface WorkingStateSummary {
  window: string;
  /** The transcripts the plan and file-state probes ran on (with the scripted plan calls). */
  transcripts: string[];
  /** The transcript whose user turns were translated; undefined when it was not among the transcripts. */
  translated: string | undefined;
  languages: TranslationLanguage[];
  rows: WorkingStateRow[];
}

/**
 * The policies the working-state probes run: the verdict's best, and when it calls no summarizer (so no
 * summary of its is written by a model in a language) the first of `summarizing` that calls one and whose
 * summarization's `language` can be set, so that its row without the features is in English.
 */
export function workingStatePolicies(
  best: Policy | undefined,
  summarizing: readonly (Policy | undefined)[],
): Policy[] {
  if (best === undefined) return [];
  if (best.summarizes) return [best];
  const other = summarizing.find(
    (policy) => policy?.summarizes === true && policy.withLanguage !== undefined,
  );
  return other === undefined || other === best ? [best] : [best, other];
}

/**
 * The working-state probes of each policy, with the features and without, on the transcripts at the window
 * (see {@link measureWorkingState}).
 */
export async function evaluateWorkingState(
  policies: readonly Policy[],
  transcripts: readonly WorkingStateTranscript[],
  window: EvaluationWindow,
): Promise<WorkingStateSummary> {
  const rows: WorkingStateRow[] = [];
  for (const policy of policies) {
    const pair = workingStatePair(policy);
    for (const features of [true, false]) {
      rows.push(await measureWorkingState(pair, features, transcripts, window.contextWindow));
    }
  }
  const translated = transcripts.some((transcript) => transcript.name === translatedTranscript);
  return {
    window: window.label,
    transcripts: transcripts.map((transcript) => transcript.name),
    translated: translated ? translatedTranscript : undefined,
    languages: translated ? [...translationLanguages] : [],
    rows,
  };
}

/** A transcript of the evaluation. */
export interface WorkingStateTranscript {
  name: string;
  messages: readonly Message[];
  callTimes?: readonly (number | undefined)[];
}

/**
 * Measures the working-state probes of one policy, with or without the features: on each transcript with
 * scripted plan calls ({@link withPlanCalls}), at every compaction, the latest plan's items with their status and
 * the last state of every file touched before it; on the translated user turns of {@link translatedTranscript},
 * whether each compaction's summary is in the user's language.
 */
export async function measureWorkingState(
  pair: WorkingStatePair,
  features: boolean,
  transcripts: readonly WorkingStateTranscript[],
  contextWindow: number,
): Promise<WorkingStateRow> {
  const policy = features ? pair.with : pair.without;
  const planTools = features ? undefined : false;
  const plan: Tally = { total: 0, kept: 0 };
  const fileState: Tally = { total: 0, kept: 0 };
  let compactions = 0;
  for (const transcript of transcripts) {
    const planned = withPlanCalls(transcript.messages, transcript.callTimes);
    const points = await replayCompactions({ ...planned, policy, contextWindow, ...optional({ planTools }) });
    compactions += points.length;
    for (const point of points) {
      const before = planned.messages.slice(0, point.messageIndex);
      add(plan, measurePlanRetention(latestPlan(before), point.context));
      add(fileState, measureFileStateRetention(fileStateProbes(before), point.context));
    }
  }
  const language: WorkingStateRow['language'] = {};
  const source = transcripts.find((transcript) => transcript.name === translatedTranscript);
  for (const code of source === undefined ? [] : translationLanguages) {
    const expected = expectedLanguage(code);
    if (expected === undefined) continue;
    const { messages } = translateUserTurns(source!.messages, code);
    const points = await replayCompactions({
      messages,
      ...optional({ callTimes: source!.callTimes, planTools }),
      policy,
      contextWindow,
    });
    language[code] = {
      total: points.length,
      kept: points.filter((point) => checkSummaryLanguage(point.context, expected).match).length,
    };
  }
  return {
    policy: pair.name,
    features,
    languageSwitched: pair.languageSwitched,
    compactions,
    plan,
    fileState,
    language,
  };
}

function add(tally: Tally, retention: { total: number; kept: number }) {
  tally.total += retention.total;
  tally.kept += retention.kept;
}

/** The fields of `values` that are defined. */
function optional<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
