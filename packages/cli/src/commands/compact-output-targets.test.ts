import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  binary,
  example,
  packageDirectory,
  runBinary,
  temporaryDirectory,
} from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

const exampleText = readFileSync(example, 'utf8');
const isRoot = process.getuid?.() === 0;
let expected: string;

beforeAll(async () => {
  const run = await runCommand(['compact', example]);
  expect(run.code, run.stderr).toBe(0);
  expected = run.stdout;
  expect(expected).not.toBe(exampleText);
});

const temporaryFiles = (directory: string) => readdirSync(directory).filter((name) => name.endsWith('.tmp'));

/** Reads a FIFO from another process (`cat`), as a user's pipeline would; resolves with what it read. */
function readFifo(path: string): { text: Promise<string>; stop(): void } {
  const reader = spawn('cat', [path], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  reader.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return {
    text: new Promise((resolve, reject) => {
      reader.on('error', reject);
      reader.on('close', () => resolve(text));
    }),
    stop: () => reader.kill('SIGKILL'),
  };
}

/** Waits for `promise`, or fails after `milliseconds` with `what`. */
async function within<T>(promise: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(what)), milliseconds);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('compact -o and --in-place on what is not a plain new file', () => {
  it('writes into a FIFO, whose reader gets the output, and leaves it a FIFO', async () => {
    const directory = temporaryDirectory();
    const fifo = join(directory, 'conversation.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = readFifo(fifo);
    try {
      const run = await runCommand(['compact', example, '-o', fifo]);
      expect(run.code, run.stderr).toBe(0);
      expect(await within(reader.text, 10_000, 'the FIFO reader got no end of file')).toBe(expected);
    } finally {
      reader.stop();
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(temporaryFiles(directory)).toEqual([]);
  });

  it('writes into a character device in place (a copy of /dev/null made in a temporary folder)', async (context) => {
    const directory = temporaryDirectory();
    const device = join(directory, 'null');
    try {
      execFileSync('mknod', [device, 'c', '1', '3'], { stdio: 'pipe' });
    } catch (error) {
      context.skip(`mknod is not permitted here: ${(error as Error).message.split('\n')[0]}`);
    }
    const before = statSync(device);
    const run = await runCommand(['compact', example, '-o', device]);
    expect(run.code, run.stderr).toBe(0);
    const after = lstatSync(device);
    expect(after.isCharacterDevice()).toBe(true);
    expect(after.rdev).toBe(before.rdev);
    expect(after.ino).toBe(before.ino);
    expect(temporaryFiles(directory)).toEqual([]);
  });

  it('writes to the process output through a link to /proc/self/fd/1, as -o /dev/stdout does', async () => {
    const directory = temporaryDirectory();
    const link = join(directory, 'stdout');
    symlinkSync('/proc/self/fd/1', link);
    const run = await runBinary(['compact', example, '-o', link]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(expected);
    expect(readlinkSync(link)).toBe('/proc/self/fd/1');
  });

  it('refuses --in-place on a FIFO before reading it', async () => {
    const directory = temporaryDirectory();
    const fifo = join(directory, 'conversation.fifo');
    execFileSync('mkfifo', [fifo]);
    const run = await runCommand(['compact', fifo, '--in-place']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `compaction: --in-place needs a regular file; ${fifo} is a device, FIFO or socket\n`,
    );
  });

  it('replaces the file a symbolic link points to, keeping the link, the owner and the mode', async () => {
    const directory = temporaryDirectory();
    const target = join(directory, 'compacted.json');
    writeFileSync(target, '{"previous": "version"}\n');
    chmodSync(target, 0o640);
    // As root, a file of another user and group: root may write it, and the replacement stays theirs.
    if (isRoot) chownSync(target, 1234, 2345);
    const owner = statSync(target);
    const link = join(directory, 'link.json');
    symlinkSync('compacted.json', link);
    const run = await runCommand(['compact', example, '-o', link]);
    expect(run.code, run.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(expected);
    const replaced = statSync(target);
    expect(replaced.ino).not.toBe(owner.ino);
    expect({ uid: replaced.uid, gid: replaced.gid, mode: replaced.mode & 0o7777 }).toEqual({
      uid: owner.uid,
      gid: owner.gid,
      mode: 0o640,
    });
    expect(temporaryFiles(directory)).toEqual([]);
  });

  it('follows a dangling symbolic link and creates the file it points to', async () => {
    const directory = temporaryDirectory();
    const link = join(directory, 'link.json');
    symlinkSync(join('out', 'compacted.json'), link);
    // The folder the link points into is missing: the write fails as `>` would, and the link stays.
    const missingFolder = await runCommand(['compact', example, '-o', link]);
    expect(missingFolder.code).toBe(1);
    expect(missingFolder.stderr).toMatch(/^compaction: cannot write .*link\.json: ENOENT/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    execFileSync('mkdir', [join(directory, 'out')]);
    const run = await runCommand(['compact', example, '-o', link]);
    expect(run.code, run.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(directory, 'out', 'compacted.json'), 'utf8')).toBe(expected);
  });

  it('refuses a read-only file (mode 0444) with -o and --in-place, before any work, and leaves it alone', async () => {
    const directory = temporaryDirectory();
    const file = join(directory, 'conversation.json');
    writeFileSync(file, exampleText);
    chmodSync(file, 0o444);
    const before = statSync(file);
    for (const args of [
      ['compact', example, '-o', file],
      ['compact', file, '--in-place'],
    ]) {
      const run = await runCommand(args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `compaction: cannot write ${file}: it is read-only (mode 0444)${isRoot ? ', even for root' : ''}\n`,
      );
      expect(readFileSync(file, 'utf8')).toBe(exampleText);
      expect(statSync(file).ino).toBe(before.ino);
    }
    expect(readdirSync(directory)).toEqual(['conversation.json']);
  });

  it('reports a missing --in-place input as unreadable input, as without --in-place', async () => {
    const missing = join(temporaryDirectory(), 'missing.json');
    const run = await runCommand(['compact', missing, '--in-place']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(missing);
  });

  it('as a user other than root: refuses a file only others may write, writes a shared one in place', async (context) => {
    if (!isRoot) context.skip('running the command as another user needs root');
    // A folder of its own that the other user can reach (the run's temporary folder is root's alone).
    const directory = mkdtempSync(join(tmpdir(), 'compaction-cli-owner-'));
    try {
      chmodSync(directory, 0o777);
      const nobody = 65534;
      const runAsNobody = (output: string) =>
        spawnSync(process.execPath, [binary, 'compact', example, '-o', output], {
          cwd: packageDirectory,
          env: { PATH: process.env.PATH },
          uid: nobody,
          gid: nobody,
          encoding: 'utf8',
        });
      const previous = '{"previous": "version"}\n';
      // Root's file, writable by root alone: `>` refuses it, and so does -o (a rename would have replaced it).
      const theirs = join(directory, 'theirs.json');
      writeFileSync(theirs, previous);
      chmodSync(theirs, 0o644);
      const refused = runAsNobody(theirs);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toBe(
        `compaction: cannot write ${theirs}: it belongs to user 0 and group 0, and others may not write it (mode 0644)\n`,
      );
      expect(readFileSync(theirs, 'utf8')).toBe(previous);
      // Root's file that everyone may write: written in place, so it stays root's, as with `>`.
      const shared = join(directory, 'shared.json');
      writeFileSync(shared, previous);
      chmodSync(shared, 0o666);
      const before = statSync(shared);
      const written = runAsNobody(shared);
      expect(written.status, written.stderr).toBe(0);
      expect(readFileSync(shared, 'utf8')).toBe(expected);
      const after = statSync(shared);
      expect([after.ino, after.uid, after.mode & 0o777]).toEqual([before.ino, 0, 0o666]);
      // Their own file: replaced atomically, still theirs.
      const own = join(directory, 'own.json');
      writeFileSync(own, previous);
      chownSync(own, nobody, nobody);
      const replaced = runAsNobody(own);
      expect(replaced.status, replaced.stderr).toBe(0);
      expect(readFileSync(own, 'utf8')).toBe(expected);
      expect(statSync(own).uid).toBe(nobody);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('refuses a folder as the output', async () => {
    const directory = temporaryDirectory();
    const run = await runCommand(['compact', example, '-o', directory]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`compaction: cannot write ${directory}: it is a folder\n`);
  });
});
