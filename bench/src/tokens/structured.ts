/** Machine text for the corpus: JSON, logs, URLs, diffs, base64 of binary data, and emoji-heavy chat. */
import { codeFunction, codeLanguages } from './code.js';
import { camelCase, fill, hex, pad, snakeCase, timestamp, uuid } from './names.js';
import { englishSentence, rareWord } from './prose.js';
import type { Random } from './random.js';
import { identifierParts } from './vocabulary.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export function jsonValue(random: Random, depth = 0): Json {
  const roll = random.next();
  if (depth < 3 && roll < 0.35) {
    const object: { [key: string]: Json } = {};
    for (let index = random.integer(1, 7); index > 0; index--) {
      const key = random.chance(0.5)
        ? camelCase(random, random.integer(1, 2))
        : snakeCase(random, random.integer(1, 2));
      object[key] = jsonValue(random, depth + 1);
    }
    return object;
  }
  if (depth < 3 && roll < 0.45)
    return Array.from({ length: random.integer(0, 5) }, () => jsonValue(random, depth + 1));
  if (roll < 0.6) return random.integer(0, 10 ** random.integer(1, 9));
  if (roll < 0.65) return Math.round(random.next() * 10000) / 100;
  if (roll < 0.7) return random.chance(0.5);
  if (roll < 0.72) return null;
  if (roll < 0.78) return uuid(random);
  if (roll < 0.83) return timestamp(random);
  if (roll < 0.88) return `/${snakeCase(random, 1)}/${camelCase(random, 1)}/${random.integer(1, 9999)}`;
  return englishSentence(random).slice(0, random.integer(5, 80));
}

export function logLine(random: Random): string {
  const file = `${random.pick(['src', 'tests', 'lib', 'packages/core/src'])}/${snakeCase(random, random.integer(1, 2))}.${random.pick(['ts', 'py', 'rs', 'go'])}`;
  const phrase = (length: number) => englishSentence(random).slice(0, length);
  return random.pick([
    () => ` ✓ ${file} (${random.integer(1, 80)} tests) ${random.integer(1, 2000)}ms`,
    () => ` × ${file} > ${phrase(50)}`,
    () => `FAIL  ${file} > ${camelCase(random, 2)} > ${phrase(40)}`,
    () => `    at ${camelCase(random, 2)} (${file}:${random.integer(1, 900)}:${random.integer(1, 80)})`,
    () => `AssertionError: expected ${random.integer(0, 100)} to equal ${random.integer(0, 100)}`,
    () =>
      `${timestamp(random, true)} ${random.pick(['INFO', 'WARN', 'ERROR', 'DEBUG'])} [${random.pick(identifierParts)}] ${phrase(70)}`,
    () =>
      `{"level":"${random.pick(['info', 'warn', 'error'])}","ts":"${timestamp(random, true)}","msg":"${random.pick(identifierParts)}","status":${random.pick([200, 201, 404, 500])},"ms":${random.integer(1, 900)}}`,
    () => `${file}:${random.integer(1, 900)}:${random.integer(1, 80)}: error: ${phrase(60)}`,
    () =>
      `==================== ${random.integer(1, 300)} passed, ${random.integer(0, 9)} failed in ${random.integer(0, 99)}.${random.integer(10, 99)}s ====================`,
    () => `test ${snakeCase(random, 3)} ... ${random.pick(['ok', 'ok', 'FAILED', 'ignored'])}`,
    () =>
      `-rw-r--r--  1 user staff  ${random.integer(10, 99999)} Nov ${random.integer(1, 28)} 10:${pad(random.integer(0, 59))} ${snakeCase(random, 2)}.${random.pick(['ts', 'json', 'md'])}`,
    () =>
      `192.168.${random.integer(0, 255)}.${random.integer(1, 254)} - - [27/Nov/2026:${pad(random.integer(0, 23))}:${pad(random.integer(0, 59))}:${pad(random.integer(0, 59))} +0000] "GET /${snakeCase(random, 2)} HTTP/1.1" ${random.pick([200, 304, 404])} ${random.integer(100, 99999)}`,
    () => `commit ${hex(random, 40)}`,
  ])();
}

export function url(random: Random): string {
  const host = random.pick([
    'github.com',
    'docs.example.org',
    'www.example.com',
    'api.service.io',
    'en.wikipedia.org',
    'cdn.assets.net',
  ]);
  const segments = Array.from({ length: random.integer(1, 5) }, () =>
    random.pick([
      () => random.pick(identifierParts),
      () => `${random.pick(identifierParts)}-${random.pick(identifierParts)}-${random.pick(identifierParts)}`,
      () => Array.from({ length: random.integer(2, 6) }, () => rareWord(random).toLowerCase()).join('-'),
      () => String(random.integer(1, 99999)),
      () => hex(random, random.pick([7, 12, 40])),
      () => `${snakeCase(random, 2)}.${random.pick(['html', 'json', 'png', 'md'])}`,
    ])(),
  );
  const query = random.chance(0.5)
    ? `?${Array.from({ length: random.integer(1, 4) }, () => `${random.pick(['id', 'page', 'q', 'utm_source', 'ref', 'sort', 'token'])}=${random.pick([String(random.integer(1, 9999)), random.pick(identifierParts), hex(random, 16)])}`).join('&')}`
    : '';
  return `${random.pick(['https://', 'https://', 'http://'])}${host}/${segments.join('/')}${query}${random.chance(0.15) ? `#${random.pick(identifierParts)}` : ''}`;
}

export function diff(random: Random): string {
  const file = `${random.pick(['src', 'lib', 'packages/core/src'])}/${snakeCase(random, 2)}.${random.pick(['ts', 'py', 'go'])}`;
  const language = random.pick(Object.values(codeLanguages));
  const lines = codeFunction(random, language).split('\n');
  const body = lines.map((line) => `${random.pick([' ', ' ', ' ', '+', '-'])}${line}`);
  const start = random.integer(1, 400);
  return [
    `diff --git a/${file} b/${file}`,
    `index ${hex(random, 7)}..${hex(random, 7)} 100644`,
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -${start},${lines.length} +${start},${lines.length + random.integer(-2, 3)} @@ ${language.header(random).slice(0, 40)}`,
    ...body,
  ].join('\n');
}

/**
 * Base64 of bytes shaped like real files rather than uniform noise: compressed stretches (random bytes),
 * zero padding, little-endian integer tables and embedded ASCII names, as in images, archives and executables.
 */
export function base64Blob(random: Random, size: number, wrap: boolean): string {
  const bytes: number[] = [];
  while ((bytes.length * 4) / 3 < size) {
    const length = random.integer(8, 400);
    const roll = random.next();
    if (roll >= 0.9) {
      bytes.push(...Buffer.from(`${snakeCase(random, 3)}\0`));
      continue;
    }
    for (let index = 0; index < length; index++) {
      if (roll < 0.6) bytes.push(random.integer(0, 255));
      else if (roll < 0.75) bytes.push(0);
      else bytes.push(index % 4 === 0 ? random.integer(0, 255) : index % 4 === 1 ? random.integer(0, 15) : 0);
    }
  }
  const encoded = Buffer.from(bytes).toString('base64');
  const body = wrap ? (encoded.match(/.{1,76}/g) ?? []).join('\n') : encoded;
  return random.chance(0.3)
    ? `data:${random.pick(['image/png', 'application/pdf', 'application/octet-stream'])};base64,${body}`
    : body;
}

const emoji = [
  '😀',
  '😂',
  '🥲',
  '😍',
  '🤔',
  '🙏',
  '👍',
  '👍🏽',
  '🎉',
  '🚀',
  '✨',
  '🔥',
  '❤️',
  '✅',
  '❌',
  '⚠️',
  '📦',
  '🐛',
  '🇫🇷',
  '🇯🇵',
  '👩‍💻',
  '👨‍👩‍👧',
  '🧑🏻‍🔬',
  '☕',
  '🌍',
  '💡',
  '📈',
  '🙈',
];

/** Chat with emoji: short phrases, emoji between and after words, runs of two or three. */
export function emojiText(random: Random, size: number): string {
  return fill(
    size,
    () => {
      const words = englishSentence(random).split(' ').slice(0, random.integer(2, 10));
      const withEmoji = words.flatMap((word) => (random.chance(0.3) ? [word, random.pick(emoji)] : [word]));
      return `${withEmoji.join(' ')} ${Array.from({ length: random.integer(1, 3) }, () => random.pick(emoji)).join('')}`;
    },
    '\n',
  );
}

const repeatedWords = [
  'key',
  'id',
  'null',
  'true',
  'ab',
  'x',
  'foo',
  'item',
  'TODO',
  'value',
  '0',
  '42',
  'NaN',
];
const repeatedSeparators = [
  '=',
  ', ',
  ',',
  ';',
  ' | ',
  ': ',
  '&',
  '\n',
  ' ',
  '/',
  '.',
  '-',
  '=1&',
  '></',
  '\t',
];

/**
 * A short unit of text repeated as a whole (`key=key=…`, `null,null,…`, `<td></td><td></td>…`): a word and a
 * separator, the shape of placeholder rows, padded lists and test fixtures. Unlike a run of one character, no
 * single run of it is long, so only the repetition shows how many tokens it costs.
 */
export function repeatedUnits(random: Random, size: number): string {
  return fill(
    size,
    () => {
      const word = random.pick(repeatedWords);
      const separator = random.pick(repeatedSeparators);
      const unit = separator === '></' ? `<${word}></${word}>` : `${word}${separator}`;
      return unit.repeat(random.integer(8, 60));
    },
    '\n',
  );
}
