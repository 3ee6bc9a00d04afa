/** One agent loop over a transcript, with compaction in line or in the background: what it blocked and sent. */
import {
  type AnchoredTokenCounter,
  type BudgetOptions,
  createCompactor,
  type GenerateResult,
  type Message,
  type Provider,
} from '@compaction/core';
import { createMeteredProvider, type MeteredCall, type SentRequest } from '@compaction/simulation';
import { createSummarization } from '@compaction/strategy-summarization';
import { createMockProvider } from '@compaction/testing';
import { scriptedSummary } from '../evaluation/scripted-summarizer.js';

export const summarizerMilliseconds = 2000;
/** A model call over a long context takes seconds: as long as the summarizer here (`--model-call` changes it). */
export const defaultModelCallMilliseconds = 2000;
export const budgetShares = { trigger: 0.85, target: 0.4 };
/** Just under the trigger: a job then starts where a compaction in line would (`--prepare-at` changes it). */
export const defaultPrepareAt = 0.84;

/** The budget of a loop: the whole window is the limit (no output reserved, no margin), with `budgetShares`. */
export function replayBudget(contextWindow: number): BudgetOptions {
  return { contextWindow, reservedOutputTokens: 0, safetyMargin: 0, ...budgetShares };
}

/** What the loop is given besides the transcript: the simulated model call's time and `prepareAt`. */
export interface ReplaySettings {
  modelCallMilliseconds: number;
  prepareAt: number;
}

export type Mode = 'in line' | 'background';

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A summarizer that waits, then answers with the scripted summary (no fact of the conversation). */
function slowSummarizer(): Provider {
  const provider = createMockProvider({ name: 'slow-scripted-summarizer', responses: [] });
  const generate = async (): Promise<GenerateResult> => {
    await sleep(summarizerMilliseconds);
    return { text: scriptedSummary, finishReason: 'stop' };
  };
  return { ...provider, generate };
}

/** A transcript to replay: its messages up to the last model call replayed, the calls, its window. */
export interface ReplayedTranscript {
  name: string;
  messages: Message[];
  /** Indexes of the assistant messages replayed: `prepare` runs before each. */
  calls: number[];
  contextWindow: number;
}

/** What one loop measured. */
export interface ReplayRun {
  /**
   * Milliseconds `prepare` blocked when given a history over the trigger, split again into those over the
   * limit (which must not be sent as they are) and those under it; and when given one under the trigger.
   */
  atTrigger: number[];
  overLimit: number[];
  underLimit: number[];
  underTrigger: number[];
  compactions: number;
  pending: number;
  used: number;
  discarded: number;
  savedMilliseconds: number;
  /** Every request sent, in order, with its answer's tokens; every call the summarizer made. */
  requests: SentRequest[];
  summarizerCalls: MeteredCall[];
  /** The context at the end: the last request sent and the answer it got. */
  finalContext: Message[];
}

/**
 * The agent loop: `prepare`, a simulated model call, then the turn the transcript recorded, appended to what
 * `prepare` returned. Times each `prepare`, and records what was sent and what the summarizer was asked.
 */
export async function replay(
  mode: Mode,
  { messages, calls, contextWindow }: ReplayedTranscript,
  counter: AnchoredTokenCounter,
  { modelCallMilliseconds, prepareAt }: ReplaySettings,
): Promise<ReplayRun> {
  const provider = createMeteredProvider(slowSummarizer(), counter);
  const compactor = createCompactor({
    strategy: createSummarization({ provider }),
    budget: replayBudget(contextWindow),
    counter,
    ...(mode === 'background' ? { background: { prepareAt } } : {}),
  });
  const run: ReplayRun = {
    atTrigger: [],
    overLimit: [],
    underLimit: [],
    underTrigger: [],
    compactions: 0,
    pending: 0,
    used: 0,
    discarded: 0,
    savedMilliseconds: 0,
    requests: [],
    summarizerCalls: [],
    finalContext: [],
  };
  compactor.on('background', (event) => {
    if (event.status === 'used') run.savedMilliseconds += event.savedMs;
    if (event.status === 'used') run.used++;
    if (event.status === 'discarded') run.discarded++;
  });
  const { limit } = compactor.budget;
  const trigger = compactor.budget.trigger ?? limit;
  let history: Message[] = messages.slice(0, calls[0]);
  for (const [turn, index] of calls.entries()) {
    const tokens = counter.count(history);
    const started = performance.now();
    const result = await compactor.prepare(history);
    const blocked = performance.now() - started;
    (tokens > trigger ? run.atTrigger : run.underTrigger).push(blocked);
    if (tokens > trigger) (tokens > limit ? run.overLimit : run.underLimit).push(blocked);
    if (result.compacted) run.compactions++;
    if (result.skipped === 'background-pending') run.pending++;
    run.requests.push({ messages: result.messages, outputTokens: counter.countMessage(messages[index]!) });
    await sleep(modelCallMilliseconds);
    history = [...result.messages, ...messages.slice(index, calls[turn + 1] ?? messages.length)];
  }
  // A job still running at the end was never used: its call is billed all the same.
  compactor.forget('default');
  await sleep(summarizerMilliseconds);
  run.summarizerCalls = provider.takeUsage().made;
  run.finalContext = history;
  return run;
}
