import { readdirSync, readFileSync } from 'node:fs';
import type { ProviderRequestFormat } from '@compaction/testing';

/** One request of a recorded sequence, relative to the one before it (see agents/fixture-recorder.mjs). */
interface EncodedRequest {
  fields?: Record<string, unknown>;
  removed?: string[];
  keep: number;
  append: unknown[];
}

/** A real agent's recorded request sequence, as `pnpm agents` writes it. */
export interface AgentFixture {
  agent: string;
  title: string;
  package: string;
  version: string;
  format: ProviderRequestFormat;
  path: string;
  window: number;
  fileCount: number;
  task: string;
  requests: EncodedRequest[];
}

const folder = new URL('./', import.meta.url);

/** The recorded agents' fixtures, by file name order. */
export function agentFixtures(): AgentFixture[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(new URL(name, folder), 'utf8')) as AgentFixture);
}

/** The conversation's field of a request in this format. */
export const listKey = (format: ProviderRequestFormat) =>
  format === 'openai-responses' ? 'input' : 'messages';

/**
 * A scripted file's text of `length` characters: the lines the live run's files hold, so the replay sends
 * requests of the size the agent sent.
 */
export function generatedText(path: string, length: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let line = 1; size < length; line++) {
    const text = `${path}:${line}: export const value${line} = computeValue(${line * 7}, "${path}-${line}");`;
    lines.push(text);
    size += text.length + 1;
  }
  return lines.join('\n').slice(0, length);
}

function expand(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expand);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.$generated === 'string' && typeof record.length === 'number') {
      return generatedText(record.$generated, record.length);
    }
    return Object.fromEntries(Object.entries(record).map(([key, entry]) => [key, expand(entry)]));
  }
  return value;
}

/** The request bodies the agent sent, in order, with the scripted files' text generated again. */
export function decodeRequests(fixture: AgentFixture): Record<string, unknown>[] {
  const key = listKey(fixture.format);
  const bodies: Record<string, unknown>[] = [];
  let fields: Record<string, unknown> = {};
  let items: unknown[] = [];
  for (const request of fixture.requests) {
    fields = { ...fields, ...(expand(request.fields ?? {}) as Record<string, unknown>) };
    for (const removed of request.removed ?? []) delete fields[removed];
    items = [...items.slice(0, request.keep), ...(expand(request.append) as unknown[])];
    bodies.push({ ...fields, [key]: items });
  }
  return bodies;
}
