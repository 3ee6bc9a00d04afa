import {
  type JSONObject,
  type JSONValue,
  latestUserMessageIndex,
  type Message,
  textOf,
  toolCallsOf,
} from '@compaction/core';
import { firstUserMessageIndex } from '@compaction/strategy-kit';
import { collectScalars, contextText } from './context-text.js';
import { errorLinesOf } from './error-lines.js';
import { leadingText, normalizeText, type Probe } from './probe.js';
import { commandOf, pathsOfCall } from './tool-call-facts.js';

/** Characters of the original task and of the newest request that make their probes. */
export const requestCharacters = 200;

/** Characters of a command's first line that make its probe. */
export const commandCharacters = 100;

/** Shortest expected-action value that makes a probe: shorter ones (`no`, `5`) match almost any text. */
export const minimumValueCharacters = 3;

/** What the probes are drawn from: a transcript's messages, and tau-bench's expected actions in `details`. */
export interface ProbeSource {
  messages: readonly Message[];
  details?: JSONObject;
}

/**
 * Derives the retention probes of a conversation, without an LLM: the original task and the newest user
 * request (their first {@link requestCharacters} characters), every file path a tool call touched, every
 * shell command run (first line, first {@link commandCharacters} characters), the error lines of tool
 * results, and for tau-bench the argument values of the task's expected actions (ids, names, amounts).
 * Duplicates are dropped; the order is first appearance.
 */
export function extractProbes(source: ProbeSource): Probe[] {
  const { messages } = source;
  const probes: Probe[] = [];
  const seen = new Set<string>();
  const add = (kind: Probe['kind'], text: string) => {
    if (text.length === 0) return;
    const key = `${kind}\u0000${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    probes.push({ kind, text });
  };

  const taskIndex = firstUserMessageIndex(messages);
  const task = taskIndex === -1 ? '' : leadingText(textOf(messages[taskIndex]!), requestCharacters);
  add('task', task);
  const requestIndex = latestUserMessageIndex(messages);
  if (requestIndex !== -1 && requestIndex !== taskIndex) {
    const request = leadingText(textOf(messages[requestIndex]!), requestCharacters);
    if (request !== task) add('request', request);
  }

  for (const message of messages) {
    for (const call of toolCallsOf(message)) {
      for (const path of pathsOfCall(call)) add('file', normalizeText(path));
      const command = commandOf(call);
      if (command !== undefined) add('command', firstLine(command));
    }
    for (const result of message.role === 'tool' ? message.content : []) {
      for (const line of errorLinesOf(outputText(result.output))) add('error', line);
    }
  }

  for (const value of expectedActionValues(source.details)) add('expected-action', value);
  return probes;
}

/**
 * Splits probes into those the uncompacted conversation contains (the ones retention is measured on) and
 * those it never did (an expected action the agent never got to, for example).
 */
export function applicableProbes(
  probes: readonly Probe[],
  messages: readonly Message[],
): { applicable: Probe[]; absent: Probe[] } {
  const text = contextText(messages);
  const applicable: Probe[] = [];
  const absent: Probe[] = [];
  for (const probe of probes) (text.includes(probe.text) ? applicable : absent).push(probe);
  return { applicable, absent };
}

function firstLine(command: string): string {
  const line = command.split('\n').find((candidate) => candidate.trim().length > 0) ?? '';
  return leadingText(line, commandCharacters);
}

function outputText(output: string | Array<{ type: string; text?: string }>): string {
  if (typeof output === 'string') return output;
  return output.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('\n');
}

/** The string and number values of the `kwargs` of tau-bench's expected actions, long enough to be telling. */
function expectedActionValues(details: JSONObject | undefined): string[] {
  const actions = details?.expectedActions;
  if (!Array.isArray(actions)) return [];
  const values: string[] = [];
  for (const action of actions) {
    if (action === null || typeof action !== 'object' || Array.isArray(action)) continue;
    const scalars: string[] = [];
    collectScalars((action.kwargs ?? action.arguments ?? {}) as JSONValue, scalars);
    for (const value of scalars) {
      const text = normalizeText(value);
      if (text.length >= minimumValueCharacters) values.push(text);
    }
  }
  return values;
}
