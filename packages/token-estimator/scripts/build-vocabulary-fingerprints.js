/**
 * Writes the vocabularies of o200k_base and cl100k_base as fingerprints, so the package counts tokens exactly
 * without shipping the tokens themselves: src/vocabulary/o200k-base-fingerprints.ts and
 * src/vocabulary/cl100k-base-fingerprints.ts. The ranks are tiktoken's published vocabularies (MIT), read from
 * the devDependency js-tiktoken, which ships them as `pat_str` and `bpe_ranks`.
 *
 * Each token gets, at the index of its rank, a 32-bit fingerprint (a polynomial hash of its UTF-8 bytes, which
 * the counter indexes) and a 16-bit check (another polynomial hash, compared only when a fingerprint matches):
 * 48 bits, so that a span of text that is not a token is taken for one about once in 2^48 / vocabulary size
 * lookups instead of once in 2^32 / vocabulary size, which in CJK or Cyrillic text was dozens of times a
 * megabyte. Ranks with no token get the fingerprint 0, which no token has.
 *
 * Usage: node scripts/build-vocabulary-fingerprints.js
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(resolve(packageDirectory, 'package.json'));

// Chosen so that no two tokens of either vocabulary share a fingerprint and none hashes to 0. When a new
// vocabulary breaks that, the script fails: try the next odd multipliers until it passes.
const fingerprintMultiplier = 0x0100020d;
const checkMultiplier = 0x9e3779b1;

const encodings = [
  { name: 'o200k_base', file: 'o200k-base-fingerprints.ts', prefix: 'o200kBase' },
  { name: 'cl100k_base', file: 'cl100k-base-fingerprints.ts', prefix: 'cl100kBase' },
];

// js-tiktoken exports no package.json: its ranks are at dist/ranks/ inside the package.
const javascriptTiktokenVersion = JSON.parse(
  readFileSync(
    resolve(dirname(require.resolve('js-tiktoken/ranks/o200k_base')), '../../package.json'),
    'utf8',
  ),
).version;

/** The fingerprint and check hash of src/vocabulary/piece-hashes.ts. */
function polynomialHash(bytes, multiplier) {
  let hash = 0;
  for (const byte of bytes) hash = (Math.imul(hash, multiplier) + byte + 1) | 0;
  return hash >>> 0;
}

/**
 * js-tiktoken's pattern rewritten to split text exactly as tiktoken's (a Rust regular expression) does:
 * - Rust's `\s` is Unicode's White_Space (with U+0085, without U+FEFF), JavaScript's is not;
 * - tiktoken writes the contractions `(?i:'s|'t|...)`, and case-insensitive `s` also matches `ſ` (U+017F).
 * Each rewrite must apply, so a changed pattern fails here instead of splitting text differently.
 */
function tiktokenPattern(javascriptPattern) {
  const rewrites = [
    [/\\s/g, '\\p{White_Space}'],
    [/\\S/g, '\\P{White_Space}'],
    [/'S\|/g, "'S|'\\u017f|"],
  ];
  let pattern = javascriptPattern;
  for (const [search, replacement] of rewrites) {
    if (pattern.match(search) === null)
      throw new Error(`the pattern ${javascriptPattern} has no ${search.source}`);
    pattern = pattern.replace(search, replacement);
  }
  new RegExp(pattern, 'u');
  return pattern;
}

function bytesOfBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** The tokens by rank, parsed as js-tiktoken's constructor does: lines of `<prefix> <offset> <base64>...`. */
function tokensByRank(bpeRanks) {
  const tokens = [];
  for (const line of bpeRanks.split('\n')) {
    if (line === '') continue;
    const [, offsetText, ...encodedTokens] = line.split(' ');
    const offset = Number.parseInt(offsetText, 10);
    encodedTokens.forEach((encoded, index) => {
      tokens[offset + index] = bytesOfBase64(encoded);
    });
  }
  return tokens;
}

function base64OfBytes(bytes) {
  let binary = '';
  const chunk = 0x8000;
  for (let start = 0; start < bytes.length; start += chunk) {
    binary += String.fromCharCode(...bytes.subarray(start, start + chunk));
  }
  return btoa(binary);
}

async function buildEncoding({ name, file, prefix }) {
  const ranks = (await import(require.resolve(`js-tiktoken/ranks/${name}`))).default;
  const tokens = tokensByRank(ranks.bpe_ranks);
  const size = tokens.length;
  const fingerprints = new DataView(new ArrayBuffer(size * 4));
  const checks = new DataView(new ArrayBuffer(size * 2));
  const rankOfFingerprint = new Map();
  for (let rank = 0; rank < size; rank++) {
    const token = tokens[rank];
    if (token === undefined) continue;
    const fingerprint = polynomialHash(token, fingerprintMultiplier);
    if (fingerprint === 0)
      throw new Error(`${name}: token ${rank} has the fingerprint 0; change the multiplier`);
    const other = rankOfFingerprint.get(fingerprint);
    if (other !== undefined) {
      throw new Error(
        `${name}: tokens ${other} and ${rank} share the fingerprint ${fingerprint}; change the multiplier`,
      );
    }
    rankOfFingerprint.set(fingerprint, rank);
    fingerprints.setUint32(rank * 4, fingerprint, true);
    checks.setUint16(rank * 2, polynomialHash(token, checkMultiplier) >>> 16, true);
  }
  const source = `// Generated by scripts/build-vocabulary-fingerprints.js from tiktoken's published ${name} vocabulary (MIT),
// as js-tiktoken ${javascriptTiktokenVersion} ships it. Do not edit: run
// \`pnpm --filter @compaction/token-estimator build:vocabulary\`.
import type { VocabularyFingerprints } from './vocabulary-fingerprints.js';

/** ${name}: ${rankOfFingerprint.size} tokens, fingerprinted by rank. */
export const ${prefix}Fingerprints: VocabularyFingerprints = {
  size: ${size},
  pattern:
    ${JSON.stringify(tiktokenPattern(ranks.pat_str))},
  fingerprintMultiplier: 0x${fingerprintMultiplier.toString(16)},
  checkMultiplier: 0x${checkMultiplier.toString(16)},
  fingerprints:
    '${base64OfBytes(new Uint8Array(fingerprints.buffer))}',
  checks:
    '${base64OfBytes(new Uint8Array(checks.buffer))}',
};
`;
  const outputPath = resolve(packageDirectory, 'src/vocabulary', file);
  writeFileSync(outputPath, source);
  console.log(
    `${name}: ${rankOfFingerprint.size} tokens of ${size} ranks -> ${outputPath} (${source.length} bytes)`,
  );
}

for (const encoding of encodings) await buildEncoding(encoding);
