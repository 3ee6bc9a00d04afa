import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArchivedItem, CompactionRecord, Message } from '@compaction/core';
import { createSqliteCompactionStore } from '@compaction/store-sqlite';
import { sampleCompactionRecord } from '@compaction/testing/vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import { itOnFullRun } from '../__fixtures__/full-run.js';
import { handlesNamedIn } from '../__fixtures__/recall-check.js';
import { example, type LooseJson, runBinary, temporaryDirectory } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

// Texts that must come back byte for byte: no final newline, CRLF and tabs, letters of several scripts and an
// emoji, a long text (written through a pipe in many chunks).
const items: ArchivedItem[] = [
  { handle: 'plain', label: 'bash output', text: 'naïve 日本語 😀 Ünïcödé\nno final newline' },
  { handle: 'crlf_1', label: 'read_file output', text: 'first\r\n\tindented\r\n\r\nlast line\n\n' },
  {
    handle: 'long-9',
    label: 'turns 3-7',
    text: Array.from({ length: 6000 }, (_, index) => `line ${index + 1}: ${'é😀x'.repeat(9)}`).join('\n'),
  },
  { handle: 'lines', label: 'test output', text: 'alpha\nBeta error\ngamma\nDELTA ERROR\nepsilon' },
];

const directory = temporaryDirectory();
const store = join(directory, 'archive.sqlite');

/** A record of `sessionId` that archived `archived`. */
function recordOf(sessionId: string, round: number, archived: ArchivedItem[]): CompactionRecord {
  return { ...sampleCompactionRecord(sessionId, round), archived };
}

beforeAll(async () => {
  const writer = createSqliteCompactionStore({ path: store });
  await writer.append(recordOf('default', 1, items));
  await writer.append(recordOf('other', 1, [{ handle: 'elsewhere', label: 'bash output', text: 'x' }]));
  await writer.close();
});

// The Node 22 compatibility run (scripts/test-node-22.sh) runs what meets the runtime: texts through a pipe,
// SQLite written and read, no store created for a wrong call, relative paths; not the command's other rules
// (the Node 20 run has run them).
describe('compaction recall', () => {
  // Through the binary: the long text leaves the process through a pipe, in many chunks.
  it('prints each archived text exactly, with nothing added', async () => {
    for (const item of items) {
      const run = await runBinary(['recall', '--store', store, item.handle]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout === item.text, item.handle).toBe(true);
    }
  });

  itOnFullRun('reads one session: another session’s handle is not found (exit 1, one line)', async () => {
    const found = await runCommand(['recall', '--store', store, '--session', 'other', 'elsewhere']);
    expect(found).toMatchObject({ code: 0, stdout: 'x' });
    const missing = await runCommand(['recall', '--store', store, 'elsewhere']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe(
      `compaction: no archived text "elsewhere" in session "default" of ${store}\n`,
    );
    const noSession = await runCommand(['recall', '--store', store, '--session', 'nobody', 'plain']);
    expect(noSession.code).toBe(1);
    expect(noSession.stderr).toBe(
      `compaction: no archived text "plain": no session "nobody" of ${store} (it has "default", "other"; choose one with --session)\n`,
    );
  });

  itOnFullRun('prints a line range or the lines matching a pattern, as the recall tool answers', async () => {
    const range = await runCommand([
      'recall',
      '--store',
      store,
      'lines',
      '--from-line',
      '2',
      '--to-line',
      '3',
    ]);
    expect(range).toMatchObject({
      code: 0,
      stdout: '[recall "lines" (test output): lines 2-3 of 5]\nBeta error\ngamma',
    });
    const pattern = await runCommand(['recall', '--store', store, 'lines', '--pattern', 'error']);
    expect(pattern.stdout).toBe(
      '[recall "lines" (test output): 2 matching lines of 5]\n2: Beta error\n4: DELTA ERROR',
    );
    // Unbounded from the command line: every line of a long text asked for comes back.
    const long = await runCommand(['recall', '--store', store, 'long-9', '--from-line', '2']);
    const [header, ...rest] = long.stdout.split('\n');
    expect(header).toBe('[recall "long-9" (turns 3-7): lines 2-6000 of 6000]');
    expect(rest.join('\n')).toBe(items[2]!.text.split('\n').slice(1).join('\n'));
  });

  it('answers a wrong call with exit 2 and one line, and creates no store', async () => {
    const missingStore = join(directory, 'missing.sqlite');
    const calls: Array<[string[], RegExp]> = [
      [['recall', '--store', store], /give the handle to recall/],
      [['recall', '--store', store, 'a', 'b'], /one handle at a time, not 2/],
      [['recall', 'plain'], /--store <path\|postgres:\/\/\.\.\.> is required/],
      [['recall', '--store', 'memory', 'plain'], /not memory/],
      [['recall', '--store', missingStore, 'plain'], /no store at .*missing\.sqlite/],
      [['recall', '--store', store, 'lines', '--from-line', '0'], /--from-line must be a line number from 1/],
      [['recall', '--store', store, 'lines', '--to-line', 'x'], /--to-line must be a line number from 1/],
      [
        ['recall', '--store', store, 'lines', '--from-line', '3', '--to-line', '2'],
        /"toLine" must not come before/,
      ],
      [['recall', '--store', store, '--unknown', 'lines'], /unknown option '--unknown'/],
    ];
    for (const [args, message] of calls) {
      const run = await runCommand(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(existsSync(missingStore)).toBe(false);
  });

  itOnFullRun('is listed in the help', async () => {
    const main = await runCommand(['--help']);
    expect(main.stdout).toMatch(/recall <handle>/);
    const help = await runCommand(['recall', '--help']);
    expect(help).toMatchObject({ code: 0 });
    expect(help.stdout).toMatch(/^Usage: compaction recall --store/);
  });
});

describe('compaction compact --store', () => {
  it('records the compaction under the session, lists what it archived, and every handle recalls', async () => {
    const folder = temporaryDirectory();
    const path = join(folder, 'compact.sqlite');
    const output = join(folder, 'out.json');
    const args = ['compact', example, '--store', path, '--session', 'run 7', '--json', '-o', output];
    const run = await runCommand(args, { cwd: folder });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as LooseJson;
    expect(report).toMatchObject({ compacted: true, store: path, session: 'run 7' });
    const reader = createSqliteCompactionStore({ path });
    const records = await reader.list('run 7');
    await reader.close();
    expect(records).toHaveLength(1);
    expect(records[0]!.event).toMatchObject({ sessionId: 'run 7', messagesAfter: report.after.messages });
    const archived = records[0]!.archived ?? [];
    expect(report.archived).toEqual(
      archived.map((item) => ({ handle: item.handle, label: item.label, characters: item.text.length })),
    );
    // Every handle the output names is one the report lists; the first, middle and last recall their archived
    // text (every handle of real transcripts is recalled in recall-transcripts.test.ts).
    const compacted = JSON.parse(readFileSync(output, 'utf8')) as Message[];
    const named = handlesNamedIn(compacted);
    const listed = new Set(archived.map((item) => item.handle));
    for (const handle of named) expect(listed.has(handle), handle).toBe(true);
    expect(archived.length).toBeGreaterThan(0);
    for (const item of new Set([
      archived[0]!,
      archived[Math.floor(archived.length / 2)]!,
      archived.at(-1)!,
    ])) {
      const recalled = await runCommand(['recall', '--store', path, '--session', 'run 7', item.handle]);
      expect(recalled.stdout === item.text, item.handle).toBe(true);
    }
  }, 600_000);

  // Through the binary: the relative paths are resolved against the process's own folder.
  it('says in its report where it archived and how to recall', async () => {
    const folder = temporaryDirectory();
    const run = await runBinary(['compact', example, '--store', 'archive.sqlite', '-o', 'out.json'], {
      cwd: folder,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/archived (nothing|[\d,]+ items?) in archive\.sqlite, session "default"/);
    if (!run.stderr.includes('archived nothing')) {
      expect(run.stderr).toContain('recall one with: compaction recall --store archive.sqlite <handle>');
    }
  });

  itOnFullRun('refuses --session without --store, and a memory store', async () => {
    const session = await runCommand(['compact', example, '--session', 'x']);
    expect(session.code).toBe(1);
    expect(session.stderr).toMatch(/--session names where --store records; give --store too/);
    const memory = await runCommand(['compact', example, '--store', 'memory']);
    expect(memory.code).toBe(1);
    expect(memory.stderr).toMatch(/not memory/);
  });
});
