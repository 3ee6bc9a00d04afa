import { expect } from 'vitest';

/** One event of a hand-made Claude Code session: what varies from line to line. */
export interface SessionEvent {
  type: 'user' | 'assistant' | 'system' | 'file-history-snapshot';
  content?: unknown;
  /** The uuid of the parent; the previous line's by default, `null` for a root. */
  parent?: string | null;
  isMeta?: true;
  /** An assistant line's API response id (lines of one response share it). */
  responseId?: string;
  /** Extra top-level fields. */
  fields?: Record<string, unknown>;
}

/**
 * A session log shaped like the ones Claude Code writes (session fields, `uuid` and `parentUuid` links,
 * timestamps), one line per event.
 */
export function sessionLog(events: SessionEvent[]): string {
  let previous: string | null = null;
  return events
    .map((event, index) => {
      const uuid = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
      if (event.type === 'file-history-snapshot') {
        return JSON.stringify({
          type: event.type,
          messageId: `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
          snapshot: {},
        });
      }
      const parentUuid = event.parent === undefined ? previous : event.parent;
      const line: Record<string, unknown> = {
        parentUuid,
        isSidechain: false,
        userType: 'external',
        cwd: '/work/app',
        sessionId: 'session-1',
        version: '2.1.16',
        gitBranch: 'main',
        type: event.type,
      };
      if (event.type === 'system') {
        Object.assign(line, { subtype: 'turn_duration', durationMs: 1000 });
      } else if (event.type === 'assistant') {
        line.message = {
          model: 'claude-opus-4-6',
          id: event.responseId ?? `msg_${index}`,
          type: 'message',
          role: 'assistant',
          content: event.content,
          stop_reason: null,
          usage: { input_tokens: 10, output_tokens: 5 },
        };
      } else {
        line.message = { role: 'user', content: event.content };
      }
      if (event.isMeta) line.isMeta = true;
      Object.assign(line, event.fields, {
        uuid,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
      });
      previous = uuid;
      return JSON.stringify(line);
    })
    .map((line) => `${line}\n`)
    .join('');
}

/** A coding session: a task, then `turns` tool calls with long results, then a last request and answer. */
export function codingSession(task: SessionEvent[], turns: number): string {
  const events: SessionEvent[] = [...task];
  for (let turn = 0; turn < turns; turn++) {
    const id = `toolu_${turn}`;
    events.push(
      {
        type: 'assistant',
        responseId: `msg_turn_${turn}`,
        content: [{ type: 'text', text: `Reading file ${turn}.` }],
      },
      {
        type: 'assistant',
        responseId: `msg_turn_${turn}`,
        content: [
          { type: 'tool_use', id, name: 'Read', input: { file_path: `/work/app/src/file-${turn}.ts` } },
        ],
      },
      {
        type: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: id,
            content: `export const value${turn} = ${turn};\n`.repeat(120),
          },
        ],
        fields: { toolUseResult: { type: 'text', file: { filePath: `/work/app/src/file-${turn}.ts` } } },
      },
    );
  }
  events.push(
    { type: 'user', content: 'Now add tests for the parser.' },
    { type: 'assistant', content: [{ type: 'text', text: 'I will add the tests.' }] },
  );
  return sessionLog(events);
}

const parse = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The fields a kept line may have changed: the chain link, and for a line with shortened content, the content. */
const changeableFields = new Set(['parentUuid', 'message', 'toolUseResult']);

/**
 * Checks a compacted session against the one it came from, as Claude Code needs it to resume:
 *
 * - every line is a line of the input, byte for byte, or a new line with compaction marks, or an input line
 *   whose only changes are its `parentUuid`, its message content and a dropped `toolUseResult`;
 * - the lines of the input keep their order;
 * - every `parentUuid` names a line of the output (or is null), and the chain from the last message line
 *   reaches a root through message lines Compaction kept or wrote.
 *
 * Returns the numbers of unchanged, changed and new lines.
 */
export function checkCompactedSession(input: string, output: string) {
  const inputLines = input.split('\n').filter((line) => line !== '');
  const inputEntries = inputLines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const byUuid = new Map(inputEntries.map((entry, index) => [entry.uuid, index]));
  const position = new Map(inputLines.map((line, index) => [line, index]));
  const outputEntries = parse(output);
  // `shortened`: changed lines whose message is a tool result a strategy shortened to fill the target.
  const counts = { unchanged: 0, changed: 0, added: 0, parentChanged: 0, shortened: 0 };
  let last = -1;
  for (const [index, line] of output
    .split('\n')
    .filter((text) => text !== '')
    .entries()) {
    const entry = outputEntries[index]!;
    let at = position.get(line);
    const sameUuid = byUuid.get(entry.uuid);
    if (at !== undefined) {
      counts.unchanged++;
    } else if (
      entry.compaction !== undefined &&
      (sameUuid === undefined ||
        JSON.stringify(inputEntries[sameUuid]!.compaction) !== JSON.stringify(entry.compaction))
    ) {
      // A new line (which may have taken the uuid of a removed line, so the next kept line stays unchanged).
      counts.added++;
      continue;
    } else {
      at = sameUuid;
      expect(at, `a line that is neither from the input nor new: ${line.slice(0, 200)}`).toBeDefined();
      const original = inputEntries[at!]!;
      const changed = [...new Set([...Object.keys(original), ...Object.keys(entry)])].filter(
        (key) => JSON.stringify(original[key]) !== JSON.stringify(entry[key]),
      );
      for (const key of changed)
        expect(changeableFields.has(key), `${key} changed in ${line.slice(0, 200)}`).toBe(true);
      if (changed.includes('parentUuid')) counts.parentChanged++;
      if (changed.includes('message') && JSON.stringify(entry.message).includes('omitted'))
        counts.shortened++;
      counts.changed++;
    }
    expect(at!, 'lines keep their order').toBeGreaterThan(last);
    last = at!;
  }
  const uuids = new Set(outputEntries.map((entry) => entry.uuid).filter((uuid) => typeof uuid === 'string'));
  for (const entry of outputEntries) {
    if (typeof entry.parentUuid === 'string')
      expect(uuids.has(entry.parentUuid), `dangling ${entry.parentUuid}`).toBe(true);
  }
  const outputByUuid = new Map(outputEntries.map((entry) => [entry.uuid, entry]));
  const leaf = outputEntries.filter((entry) => entry.type === 'user' || entry.type === 'assistant').at(-1)!;
  const chain: Record<string, unknown>[] = [];
  for (
    let entry: Record<string, unknown> | undefined = leaf;
    entry !== undefined;
    entry = outputByUuid.get(entry.parentUuid)
  ) {
    chain.push(entry);
    expect(chain.length).toBeLessThanOrEqual(outputEntries.length);
  }
  return { ...counts, chain: chain.reverse() };
}
