/**
 * Times the ASCII splitter of src/vocabulary/ascii-pieces.ts against the patterns' `matchAll`, on the text of
 * the shared transcripts: every string of the JSON and JSONL files (with `--raw`, the files as they are), non-ASCII
 * characters replaced by spaces, cut into texts of 3,000 characters. Both sides walk every piece and sum the
 * pieces' lengths; each pass is timed over all the texts, and the median of the passes is printed in MB/s
 * (1 character, 1 byte) and pieces per second. Checks on the way that both find the same pieces.
 *
 * Usage: npx tsx scripts/time-ascii-pieces.js [--raw] [--passes 21]
 * The transcripts are read from COMPACTION_TRANSCRIPTS, or else ../shared/fixtures/transcripts beside the
 * repository.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { cl100kAsciiPieceEnd, o200kAsciiPieceEnd } from '../src/vocabulary/ascii-pieces.ts';

const packageDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const transcriptsDirectory =
  process.env.COMPACTION_TRANSCRIPTS ?? resolve(packageDirectory, '../../../shared/fixtures/transcripts');
const raw = process.argv.includes('--raw');
const passesIndex = process.argv.indexOf('--passes');
const passes = passesIndex >= 0 ? Number(process.argv[passesIndex + 1]) : 21;
const textLength = 3000;

function filesUnder(directory) {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(json|jsonl|traj)$/.test(name) ? [path] : [];
  });
}

function stringsOf(value, into) {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) stringsOf(item, into);
  return into;
}

function textOf(file) {
  const content = readFileSync(file, 'utf8');
  if (raw) return content;
  const values = file.endsWith('.jsonl')
    ? content
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line))
    : [JSON.parse(content)];
  return stringsOf(values, []).join('\n');
}

const corpus = filesUnder(transcriptsDirectory)
  .map(textOf)
  .join('\n')
  .replace(/[^\p{ASCII}]/gu, ' ');
const texts = [];
// Each text is copied to a flat string of its own, as a caller's text would be.
for (let start = 0; start < corpus.length; start += textLength) {
  texts.push(Array.from(corpus.slice(start, start + textLength)).join(''));
}
const characters = texts.reduce((sum, text) => sum + text.length, 0);

// One pass function per encoding, so that each calls its splitter from a call site of its own, as a caller would.
function o200kSplitterPass() {
  let pieces = 0;
  let covered = 0;
  for (const text of texts) {
    for (let start = 0, end = 0; start < text.length; start = end) {
      end = o200kAsciiPieceEnd(text, start);
      covered += end - start;
      pieces++;
    }
  }
  return { pieces, covered };
}

function cl100kSplitterPass() {
  let pieces = 0;
  let covered = 0;
  for (const text of texts) {
    for (let start = 0, end = 0; start < text.length; start = end) {
      end = cl100kAsciiPieceEnd(text, start);
      covered += end - start;
      pieces++;
    }
  }
  return { pieces, covered };
}

function matchAllPass(pattern) {
  let pieces = 0;
  let covered = 0;
  for (const text of texts) {
    for (const match of text.matchAll(pattern)) {
      covered += match[0].length;
      pieces++;
    }
  }
  return { pieces, covered };
}

/** The sticky expression's `test`, which allocates no match: how src/vocabulary/pre-tokenizer.ts walks the text. */
function stickyTestPass(sticky) {
  let pieces = 0;
  let covered = 0;
  for (const text of texts) {
    let start = 0;
    sticky.lastIndex = 0;
    while (start < text.length && sticky.test(text)) {
      covered += sticky.lastIndex - start;
      start = sticky.lastIndex;
      pieces++;
    }
  }
  return { pieces, covered };
}

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

function seconds(pass) {
  const began = process.hrtime.bigint();
  const result = pass();
  return { result, seconds: Number(process.hrtime.bigint() - began) / 1e9 };
}

/**
 * Passes of the splitter and of each way of running the regex, taken in turn, so that the load of a shared
 * machine weighs on all alike: the median speed of each, and the median of the ratios of passes run one after
 * the other.
 */
function compare(name, ways) {
  for (let index = 0; index < 3; index++) for (const [, pass] of ways) pass();
  const times = ways.map(() => []);
  const results = [];
  for (let index = 0; index < passes; index++) {
    ways.forEach(([, pass], way) => {
      const timed = seconds(pass);
      results[way] = timed.result;
      times[way].push(timed.seconds);
    });
  }
  ways.forEach(([label], way) => {
    const typical = median(times[way]);
    const ratio =
      way === 0
        ? ''
        : `  splitter ${median(times[way].map((time, pass) => time / times[0][pass])).toFixed(1)}x`;
    console.log(
      `${`${name} ${label}`.padEnd(28)} ${(characters / 1e6 / typical).toFixed(1).padStart(6)} MB/s` +
        `  ${(results[way].pieces / 1e6 / typical).toFixed(2).padStart(6)} M pieces/s` +
        `  (median of ${passes}; best ${(characters / 1e6 / Math.min(...times[way])).toFixed(1)} MB/s)${ratio}`,
    );
    if (results[way].covered !== characters)
      throw new Error(`${name} ${label}: the pieces do not cover the text`);
  });
}

console.log(
  `${texts.length} texts of up to ${textLength} characters, ${(characters / 1e6).toFixed(2)} MB${raw ? ' (raw files)' : ''}`,
);
for (const [name, source, pieceEnd, splitterPass] of [
  ['o200k_base', o200kBase.pat_str, o200kAsciiPieceEnd, o200kSplitterPass],
  ['cl100k_base', cl100kBase.pat_str, cl100kAsciiPieceEnd, cl100kSplitterPass],
]) {
  const pattern = new RegExp(source, 'gu');
  const sticky = new RegExp(source, 'uy');
  // The same pieces, in the same order, from both (a hash over their ends, to compare without keeping them).
  let splitterHash = 0;
  let regexHash = 0;
  for (const text of texts) {
    for (let start = 0, end = 0; start < text.length; start = end) {
      end = pieceEnd(text, start);
      splitterHash = (Math.imul(splitterHash, 31) + end) | 0;
    }
    for (const match of text.matchAll(pattern)) {
      regexHash = (Math.imul(regexHash, 31) + match.index + match[0].length) | 0;
    }
  }
  if (splitterHash !== regexHash) throw new Error(`${name}: the splitter and the regex disagree`);
  compare(name, [
    ['splitter', splitterPass],
    ['regex matchAll', () => matchAllPass(pattern)],
    ['regex sticky test', () => stickyTestPass(sticky)],
  ]);
}
