#!/usr/bin/env node
// Runs the `compaction` commands the pages show, against the built CLI, and compares what they print with the
// output shown under them, so no page shows a command or an output the CLI does not give.
//
//   node scripts/check-doc-commands.mjs            check every page
//   node scripts/check-doc-commands.mjs --write    write each command's output into its page instead
//   node scripts/check-doc-commands.mjs docs/cli.md   only these pages
//
// A block with `$ command` lines is a transcript: each command runs and its output (standard output and error
// together) must be the lines under it, up to the next `$ ` line. A `...` line stands for any lines, and
// durations (`12 ms`) may differ. In a ```sh block every `compaction` command runs and must exit 0; install
// commands (npm, npx, pnpm add) are left to the registry scenarios. Marks on the lines above a block:
//   <!-- doc-check: not run: <reason> -->   the block is not run (it needs a network, a key, a server...);
//                                           the reason is printed
//   <!-- doc-check: before: <command> -->   a command run first, not shown (it makes the files the block reads)
// The commands of a page run in order in one temporary folder, a copy of the repository's paths they read
// (docs from the repository root, a package's README from its package folder), with no API keys set.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { documentationPages, fencedBlocks, readPage, root } from './doc-blocks.mjs';
import { startLoopbackServers } from './doc-command-servers.mjs';

const write = process.argv.includes('--write');
const chosen = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const pages = chosen.length > 0 ? chosen : documentationPages();
// What the commands read from the repository, copied so that nothing they write lands in it.
const copied = ['packages/cli/examples', 'examples/compact-conversation/conversation.json'];
const installCommand = /^(npm (install|i)\b|npx\b|pnpm (add|install|i)\b)/;
const durations = [/\b\d+(\.\d+)? m?s\b/g, /"durationMs":\s*\d+(\.\d+)?/g];

const started = performance.now();
const scratch = mkdtempSync(join(tmpdir(), 'compaction-doc-commands-'));
const bin = join(scratch, 'bin');
mkdirSync(bin);
writeFileSync(
  join(bin, 'compaction'),
  `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'packages/cli/dist/bin.js')}" "$@"\n`,
);
chmodSync(join(bin, 'compaction'), 0o755);
const environment = {
  PATH: `${bin}:${process.env.PATH}`,
  HOME: scratch,
  LANG: 'C.UTF-8',
  NO_COLOR: '1',
  TERM: 'dumb',
  TZ: 'UTC',
};

const failures = [];
let ran = 0;
let rewritten = 0;
const servers = await startLoopbackServers();
try {
  for (const page of pages) checkPage(page);
} finally {
  await servers.close();
  rmSync(scratch, { recursive: true, force: true });
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (failures.length > 0) {
  console.error(`\n${failures.length} documented command(s) do not run as shown:\n`);
  for (const failure of failures) console.error(`${failure}\n`);
  console.error(
    'Fix the page, or run `node scripts/check-doc-commands.mjs --write` when the new output is right.',
  );
  process.exit(1);
}
console.log(
  `${ran} documented commands ran as shown${write ? `; ${rewritten} outputs written` : ''} (${seconds} s)`,
);

function checkPage(page) {
  const pageLines = readPage(page);
  const blocks = fencedBlocks(pageLines).filter((block) => runnable(block) !== 'none');
  if (blocks.length === 0) return;
  const folder = mkdtempSync(join(scratch, 'page-'));
  for (const path of copied) cpSync(join(root, path), join(folder, path), { recursive: true });
  const cwd = join(folder, page.startsWith('docs/') ? '' : dirname(page));
  mkdirSync(cwd, { recursive: true });
  const replacements = [];
  for (const block of blocks) {
    const where = `${page}:${block.line}`;
    const skip = block.marks.find((mark) => mark.startsWith('not run:'));
    if (skip !== undefined) {
      console.log(`${where}: not run: ${skip.slice('not run:'.length).trim()}`);
      continue;
    }
    for (const mark of block.marks.filter((text) => text.startsWith('before:'))) {
      const result = run(mark.slice('before:'.length).trim(), cwd);
      if (result.status !== 0)
        failures.push(`${where}: the command before the block failed:\n${result.output}`);
    }
    const replacement =
      runnable(block) === 'transcript' ? checkTranscript(block, cwd, where) : checkScript(block, cwd, where);
    if (replacement !== undefined) replacements.push({ block, lines: replacement });
  }
  if (write && replacements.length > 0) {
    for (const { block, lines } of replacements.reverse()) {
      pageLines.splice(
        block.start + 1,
        block.end - block.start - 1,
        ...lines.map((line) => (line === '' ? '' : block.indent + line)),
      );
    }
    writeFileSync(join(root, page), pageLines.join('\n'));
  }
}

/** `transcript` for a block of `$ command` lines with output, `script` for a ```sh block of commands, or `none`. */
function runnable(block) {
  if (block.lines.some((line) => line.startsWith('$ '))) return 'transcript';
  if (['sh', 'bash', 'shell'].includes(block.language) && commandsOf(block.lines).some(isCompaction))
    return 'script';
  return 'none';
}

function checkTranscript(block, cwd, where) {
  const result = [];
  let changed = false;
  let index = 0;
  while (index < block.lines.length) {
    if (!block.lines[index].startsWith('$ ')) {
      failures.push(`${where}: a line before the first command: ${block.lines[index]}`);
      return undefined;
    }
    const start = index;
    while (block.lines[index].endsWith('\\')) index++;
    const commandLines = block.lines.slice(start, index + 1);
    index++;
    const expected = [];
    while (index < block.lines.length && !block.lines[index].startsWith('$ '))
      expected.push(block.lines[index++]);
    const command = commandLines.join('\n').slice(2);
    const actual = run(command, cwd).output.replace(/\n$/, '').split('\n');
    ran++;
    result.push(...commandLines);
    if (matches(expected, actual)) {
      result.push(...expected);
      continue;
    }
    if (write) {
      result.push(...withElisions(expected, actual));
      changed = true;
      rewritten++;
    } else {
      failures.push(
        `${where}: $ ${command}\n--- shown\n${expected.join('\n')}\n--- printed\n${actual.join('\n')}`,
      );
    }
  }
  return changed ? result : undefined;
}

function checkScript(block, cwd, where) {
  for (const command of commandsOf(block.lines)) {
    if (installCommand.test(command)) {
      console.log(`${where}: not run: \`${command.split('#')[0].trim()}\` installs from the npm registry`);
      continue;
    }
    if (!isCompaction(command)) {
      failures.push(
        `${where}: \`${command}\` is not a compaction command; mark the block <!-- doc-check: not run: why -->`,
      );
      continue;
    }
    const result = run(command, cwd);
    ran++;
    if (result.status !== 0)
      failures.push(`${where}: $ ${command}\nexited with ${result.status}:\n${result.output}`);
  }
  return undefined;
}

/** The commands of a ```sh block: its lines joined where they end with `\`, without blanks and comment lines. */
function commandsOf(lines) {
  return lines
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function isCompaction(command) {
  return /^(\w+=\S*\s+)*compaction(\s|$)/.test(command);
}

function run(command, cwd) {
  const result = spawnSync('bash', ['-o', 'pipefail', '-c', `{\n${command}\n} 2>&1`], {
    cwd,
    env: environment,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, output: result.stdout + (result.error ? `${result.error.message}\n` : '') };
}

function normalize(line) {
  return durations
    .reduce(
      (text, pattern) => text.replace(pattern, (found) => found.replace(/\d+(\.\d+)?( m?s)?/, 'N')),
      line,
    )
    .trimEnd();
}

/** Whether `actual` is what `expected` shows, where a `...` line stands for any number of lines. */
function matches(expected, actual) {
  if (expected.length === 0) return actual.length === 0 || (actual.length === 1 && actual[0] === '');
  if (expected[0] === '...')
    return (
      actual.some((_, skip) => matches(expected.slice(1), actual.slice(skip))) ||
      matches(expected.slice(1), [])
    );
  return (
    actual.length > 0 &&
    normalize(expected[0]) === normalize(actual[0]) &&
    matches(expected.slice(1), actual.slice(1))
  );
}

/** The new output to write, keeping a shown `...`: as many lines before and after it as the page showed. */
function withElisions(expected, actual) {
  const first = expected.indexOf('...');
  if (first === -1) return actual.length === 1 && actual[0] === '' ? [] : actual;
  const after = expected.length - expected.lastIndexOf('...') - 1;
  if (first + after >= actual.length) return actual;
  return [...actual.slice(0, first), '...', ...actual.slice(actual.length - after)];
}
