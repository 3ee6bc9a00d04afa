import { spawn } from 'node:child_process';
import {
  chmodSync,
  linkSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { type Message, toolCallsOf } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { itOnFullRun } from '../__fixtures__/full-run.js';
import {
  binary,
  example,
  packageDirectory,
  runBinary,
  temporaryDirectory,
} from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

const exampleText = readFileSync(example, 'utf8');

// The Node 22 compatibility run (scripts/test-node-22.sh) does not register the twelve kill rounds on a 10 MB
// write: the file is replaced by a rename whatever the Node version, and the Node 20 run has killed it
// mid-write already; the run on Node 22 still writes, refuses and replaces files through the command.

/** A core conversation of about 20 MB, so writing its compacted form takes tens of milliseconds. */
function largeConversation(): string {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Read every file.' }] }];
  for (let index = 0; index < 400; index++) {
    const call = `call-${index}`;
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: call, toolName: 'read', input: { index } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: call,
            toolName: 'read',
            output: `line ${index} of the file\n`.repeat(2500),
          },
        ],
      },
    );
  }
  messages.push({ role: 'user', content: [{ type: 'text', text: 'Now summarize them.' }] });
  expect(messages.filter((message) => toolCallsOf(message).length > 0)).toHaveLength(400);
  return JSON.stringify(messages, null, 2);
}

const temporaryFiles = (directory: string) => readdirSync(directory).filter((name) => name.endsWith('.tmp'));

/**
 * Runs the binary and kills it with SIGKILL `delayMs` after it starts writing in `directory`: creating a file
 * there, or changing `output` in place (or lets it finish when it exits first).
 */
function runAndKillWhileWriting(
  args: string[],
  directory: string,
  output: string,
  delayMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binary, ...args], {
      cwd: packageDirectory,
      env: { PATH: process.env.PATH },
      stdio: 'ignore',
    });
    let scheduled = false;
    const watcher = watch(directory, (_event, name) => {
      if (scheduled || name === null || !(name.endsWith('.tmp') || name === basename(output))) return;
      scheduled = true;
      setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.on('error', reject);
    child.on('close', () => {
      watcher.close();
      resolve();
    });
  });
}

describe('compact output files', () => {
  itOnFullRun(
    'leaves the old file or the complete new one, never a partial one, when killed mid-write',
    async () => {
      const directory = temporaryDirectory();
      const input = join(directory, 'conversation.json');
      const output = join(directory, 'compacted.json');
      writeFileSync(input, largeConversation());
      const args = ['compact', input, '--context-window', '100m', '--target', '0.9', '-o', output];
      const finished = await runCommand(args);
      expect(finished.code, finished.stderr).toBe(0);
      const complete = readFileSync(output);
      expect(complete.length).toBeGreaterThan(10_000_000);
      const previous = Buffer.from('{"previous": "version"}\n');
      let killedMidWrite = 0;
      let replaced = 0;
      // Kills spread over the write: at once, and later and later until the rename has happened.
      for (let round = 0; round < 12; round++) {
        writeFileSync(output, previous);
        await runAndKillWhileWriting(args, directory, output, round * 4);
        const written = readFileSync(output);
        const whole = written.equals(previous) || written.equals(complete);
        expect(whole, `round ${round}: ${written.length} bytes`).toBe(true);
        if (written.equals(complete)) replaced++;
        const leftovers = temporaryFiles(directory);
        if (leftovers.length > 0) killedMidWrite++;
        for (const name of leftovers) rmSync(join(directory, name));
      }
      // Some kills landed inside the write (a temporary file was left behind) and yet the file was whole.
      expect(killedMidWrite, `${replaced} rounds finished the write`).toBeGreaterThan(0);
    },
    120_000,
  );

  it('refuses -o naming the input file, through a symbolic link or a hard link, unless --in-place', async () => {
    const directory = temporaryDirectory();
    const input = join(directory, 'conversation.json');
    writeFileSync(input, exampleText);
    const link = join(directory, 'link.json');
    symlinkSync(input, link);
    const hardLink = join(directory, 'hard.json');
    linkSync(input, hardLink);
    for (const output of [input, join(directory, '.', 'conversation.json'), link, hardLink]) {
      const refused = await runCommand(['compact', input, '-o', output]);
      expect(refused.code, output).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(
        /^compaction: -o .* is the input file.*; pass --in-place to replace it\n$/,
      );
      expect(readFileSync(input, 'utf8')).toBe(exampleText);
    }
    // The input given through the link is recognised too.
    const throughLink = await runCommand(['compact', link, '-o', input]);
    expect(throughLink.code).toBe(1);
    expect(readFileSync(input, 'utf8')).toBe(exampleText);
  });

  it('replaces the input with --in-place, keeping its symbolic link and permissions', async () => {
    const directory = temporaryDirectory();
    const input = join(directory, 'conversation.json');
    writeFileSync(input, exampleText);
    chmodSync(input, 0o640);
    const link = join(directory, 'link.json');
    symlinkSync(input, link);
    const expected = await runCommand(['compact', input]);
    expect(expected.code).toBe(0);

    const inPlace = await runCommand(['compact', link, '--in-place']);
    expect(inPlace.code, inPlace.stderr).toBe(0);
    expect(inPlace.stdout).toBe('');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(input, 'utf8')).toBe(expected.stdout);
    expect(statSync(input).mode & 0o777).toBe(0o640);
    expect(temporaryFiles(directory)).toEqual([]);

    // -o naming the same file is accepted with --in-place.
    writeFileSync(input, exampleText);
    const named = await runCommand(['compact', input, '-o', link, '--in-place', '--json']);
    expect(named.code).toBe(0);
    expect(JSON.parse(named.stdout).output).toBe(input);
    expect(readFileSync(input, 'utf8')).toBe(expected.stdout);
  });

  it('leaves the input untouched with --in-place when there is nothing to compact', async () => {
    const input = join(temporaryDirectory(), 'conversation.json');
    writeFileSync(input, exampleText);
    const before = statSync(input);
    const run = await runCommand(['compact', input, '--in-place', '--target', '100k']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('Nothing compacted');
    expect(readFileSync(input, 'utf8')).toBe(exampleText);
    expect(statSync(input).ino).toBe(before.ino);
  });

  it('rejects --in-place without an input file or with another output', async () => {
    const stdin = await runBinary(['compact', '-', '--in-place'], { input: exampleText });
    expect(stdin.code).toBe(1);
    expect(stdin.stderr).toBe('compaction: --in-place needs an input file, not standard input\n');
    const directory = temporaryDirectory();
    const input = join(directory, 'conversation.json');
    writeFileSync(input, exampleText);
    const other = await runCommand(['compact', input, '--in-place', '-o', join(directory, 'other.json')]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('-o names another file');
    expect(readdirSync(directory)).toEqual(['conversation.json']);
  });
});
