import { createRandom, type Random } from './random.js';
import {
  adjectives,
  chinesePunctuation,
  chineseWords,
  cyrillicWords,
  europeanWords,
  functionWords,
  greekWords,
  identifierParts,
  japanesePhrases,
  koreanWords,
  nouns,
  verbs,
} from './vocabulary.js';

/** The content classes the corpus covers, each measured separately by the benchmark. */
export const contentClasses = [
  'prose',
  'code',
  'json',
  'logs',
  'cjk',
  'multilingual',
  'base64',
  'mixed',
] as const;
export type ContentClass = (typeof contentClasses)[number];

/** One generated sample. */
export interface CorpusSample {
  contentClass: ContentClass;
  text: string;
}

/** Settings of {@link generateCorpus}. */
export interface CorpusSettings {
  /** Samples per class. Default 60. */
  samplesPerClass?: number;
  /** Seed; the fitting script and the benchmark use different seeds. Default 1. */
  seed?: number;
}

/**
 * Generates the calibration and benchmark corpus: prose, source code, JSON, logs and test output, CJK text,
 * European, Greek and Cyrillic text, base64 blobs, and mixed agent-like messages, each sample 200 to 12,000 characters. Deterministic per seed.
 */
export function generateCorpus(settings: CorpusSettings = {}): CorpusSample[] {
  const random = createRandom(settings.seed ?? 1);
  const samplesPerClass = settings.samplesPerClass ?? 60;
  const samples: CorpusSample[] = [];
  for (const contentClass of contentClasses) {
    for (let index = 0; index < samplesPerClass; index++) {
      const size = Math.round(200 * 60 ** random.next());
      samples.push({ contentClass, text: generators[contentClass](random, size) });
    }
  }
  return samples;
}

const generators: Record<ContentClass, (random: Random, size: number) => string> = {
  prose: (random, size) => fill(size, () => paragraph(random), '\n\n'),
  code: (random, size) =>
    fill(size, () => random.pick([typescriptFunction, pythonFunction, goFunction])(random), '\n\n'),
  json: (random, size) =>
    fill(
      size,
      () => {
        const value = jsonValue(random, 0);
        return random.chance(0.5) ? JSON.stringify(value, null, 2) : JSON.stringify(value);
      },
      '\n',
    ),
  logs: (random, size) => fill(size, () => logLine(random), '\n'),
  cjk: (random, size) =>
    fill(size, () => random.pick([chineseSentence, japaneseSentence, koreanSentence])(random), ''),
  multilingual: (random, size) => fill(size, () => multilingualSentence(random), ' '),
  base64: (random, size) => base64Blob(random, size),
  mixed: (random, size) =>
    fill(
      size,
      () => {
        const kind = random.pick(['prose', 'code', 'json', 'logs', 'cjk', 'multilingual', 'base64'] as const);
        return generators[kind](random, random.integer(100, 800));
      },
      '\n\n',
    ),
};

function fill(size: number, piece: () => string, separator: string): string {
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const next = piece();
    parts.push(next);
    length += next.length + separator.length;
  }
  return parts.join(separator);
}

function sentence(random: Random): string {
  const words: string[] = [];
  const count = random.integer(6, 24);
  for (let index = 0; index < count; index++) {
    const roll = random.next();
    let word =
      roll < 0.45
        ? random.pick(functionWords)
        : roll < 0.7
          ? random.pick(nouns)
          : roll < 0.85
            ? random.pick(verbs)
            : roll < 0.97
              ? random.pick(adjectives)
              : String(random.integer(1, random.pick([12, 100, 2026, 100000])));
    if (index > 2 && random.chance(0.08)) word += ',';
    if (random.chance(0.02)) word = `"${word}"`;
    if (random.chance(0.015)) word = `(${word})`;
    words.push(word);
  }
  const text = words.join(' ');
  return text[0]!.toUpperCase() + text.slice(1) + random.pick(['.', '.', '.', '.', '?', '!', ':', ';']);
}

function paragraph(random: Random): string {
  const sentences: string[] = [];
  const count = random.integer(2, 8);
  for (let index = 0; index < count; index++) sentences.push(sentence(random));
  const text = sentences.join(' ');
  return random.chance(0.15) ? `## ${sentence(random).slice(0, 40)}\n\n${text}` : text;
}

function camelCase(random: Random, parts: number): string {
  const words: string[] = [];
  for (let index = 0; index < parts; index++) {
    const part = random.pick(identifierParts);
    words.push(index === 0 ? part : part[0]!.toUpperCase() + part.slice(1));
  }
  return words.join('');
}

function snakeCase(random: Random, parts: number): string {
  const words: string[] = [];
  for (let index = 0; index < parts; index++) words.push(random.pick(identifierParts));
  return words.join('_');
}

function typescriptFunction(random: Random): string {
  const name = camelCase(random, random.integer(2, 4));
  const parameters = Array.from(
    { length: random.integer(0, 3) },
    () =>
      `${camelCase(random, random.integer(1, 2))}: ${random.pick(['string', 'number', 'boolean', 'Message[]', 'Record<string, unknown>', 'TokenCounter'])}`,
  );
  const lines = [
    `export ${random.chance(0.3) ? 'async ' : ''}function ${name}(${parameters.join(', ')}): ${random.pick(['void', 'number', 'string', 'Promise<Result>', 'boolean'])} {`,
  ];
  for (let index = 0; index < random.integer(2, 12); index++) {
    const indent = '  '.repeat(random.integer(1, 3));
    const variable = camelCase(random, random.integer(1, 3));
    lines.push(
      indent +
        random.pick([
          `const ${variable} = ${camelCase(random, 2)}(${camelCase(random, 1)}, ${random.integer(0, 4096)});`,
          `if (${variable} === undefined || ${variable}.length > ${random.integer(1, 100)}) return ${random.pick(['null', 'false', '0', "''"])};`,
          `for (let index = 0; index < ${variable}.length; index++) total += ${variable}[index]!.${camelCase(random, 1)};`,
          `// ${sentence(random)}`,
          `throw new ${random.pick(['TypeError', 'RangeError', 'InvalidOptionsError'])}(\`${sentence(random).slice(0, 50)}\`);`,
          `await this.${camelCase(random, 2)}({ ${camelCase(random, 1)}: ${variable}, ${camelCase(random, 1)}: ${random.chance(0.5)} });`,
          `${variable}.${camelCase(random, 2)}.push(...${camelCase(random, 2)}.filter((item) => item.${camelCase(random, 1)} !== '${random.pick(identifierParts)}'));`,
        ]),
    );
  }
  lines.push('}');
  return lines.join('\n');
}

function pythonFunction(random: Random): string {
  const lines = [
    `def ${snakeCase(random, random.integer(2, 4))}(self, ${snakeCase(random, 2)}: ${random.pick(['str', 'int', 'list[str]', 'dict[str, Any]'])} = None) -> ${random.pick(['None', 'bool', 'int', 'str'])}:`,
  ];
  lines.push(`    """${sentence(random)}"""`);
  for (let index = 0; index < random.integer(2, 10); index++) {
    const indent = '    '.repeat(random.integer(1, 3));
    const variable = snakeCase(random, random.integer(1, 3));
    lines.push(
      indent +
        random.pick([
          `${variable} = self.${snakeCase(random, 2)}(${snakeCase(random, 1)}, timeout=${random.integer(1, 120)})`,
          `if not ${variable}:`,
          `    raise ValueError(f"${sentence(random).slice(0, 40)} {${variable}!r}")`,
          `for ${snakeCase(random, 1)} in ${variable}.items():`,
          `# ${sentence(random)}`,
          `assert ${variable} == ${random.integer(0, 999)}, "${snakeCase(random, 2)}"`,
          `return [${snakeCase(random, 1)}.strip() for ${snakeCase(random, 1)} in ${variable} if ${snakeCase(random, 1)}]`,
        ]),
    );
  }
  return lines.join('\n');
}

function goFunction(random: Random): string {
  const name = camelCase(random, 2);
  const exported = name[0]!.toUpperCase() + name.slice(1);
  const lines = [
    `func (s *${random.pick(['Server', 'Store', 'Parser'])}) ${exported}(ctx context.Context, ${camelCase(random, 1)} ${random.pick(['string', 'int64', '[]byte'])}) error {`,
  ];
  for (let index = 0; index < random.integer(2, 8); index++) {
    lines.push(
      '\t' +
        random.pick([
          `if err := s.${camelCase(random, 2)}(ctx); err != nil {\n\t\treturn fmt.Errorf("${random.pick(identifierParts)}: %w", err)\n\t}`,
          `${camelCase(random, 1)} := make(map[string]int, ${random.integer(1, 64)})`,
          `defer s.mu.Unlock()`,
          `log.Printf("%s took %v", ${camelCase(random, 1)}, time.Since(start))`,
        ]),
    );
  }
  lines.push('\treturn nil\n}');
  return lines.join('\n');
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function jsonValue(random: Random, depth: number): Json {
  const roll = random.next();
  if (depth < 3 && roll < 0.35) {
    const object: { [key: string]: Json } = {};
    for (let index = 0; index < random.integer(1, 7); index++) {
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
  if (roll < 0.83)
    return `2026-${pad(random.integer(1, 12))}-${pad(random.integer(1, 28))}T${pad(random.integer(0, 23))}:${pad(random.integer(0, 59))}:${pad(random.integer(0, 59))}Z`;
  if (roll < 0.88) return `/${snakeCase(random, 1)}/${camelCase(random, 1)}/${random.integer(1, 9999)}`;
  return sentence(random).slice(0, random.integer(5, 80));
}

function uuid(random: Random): string {
  const hex = (length: number) => Array.from({ length }, () => random.integer(0, 15).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function logLine(random: Random): string {
  const file = `${random.pick(['src', 'tests', 'lib', 'packages/core/src'])}/${snakeCase(random, random.integer(1, 2))}.${random.pick(['ts', 'py', 'rs', 'go'])}`;
  const time = `2026-11-${pad(random.integer(1, 28))}T${pad(random.integer(0, 23))}:${pad(random.integer(0, 59))}:${pad(random.integer(0, 59))}.${String(random.integer(0, 999)).padStart(3, '0')}Z`;
  return random.pick([
    () => ` ✓ ${file} (${random.integer(1, 80)} tests) ${random.integer(1, 2000)}ms`,
    () => ` × ${file} > ${sentence(random).slice(0, 50)}`,
    () => `FAIL  ${file} > ${camelCase(random, 2)} > ${sentence(random).slice(0, 40)}`,
    () => `PASS  ${file} (${random.integer(1, 99)}.${random.integer(0, 99)} s)`,
    () => `    at ${camelCase(random, 2)} (${file}:${random.integer(1, 900)}:${random.integer(1, 80)})`,
    () => `AssertionError: expected ${random.integer(0, 100)} to equal ${random.integer(0, 100)}`,
    () =>
      `${time} ${random.pick(['INFO', 'WARN', 'ERROR', 'DEBUG'])} [${random.pick(identifierParts)}] ${sentence(random).slice(0, 70)}`,
    () =>
      `{"level":"${random.pick(['info', 'warn', 'error'])}","ts":"${time}","msg":"${random.pick(identifierParts)}","status":${random.pick([200, 201, 404, 500])},"ms":${random.integer(1, 900)}}`,
    () =>
      `${file}:${random.integer(1, 900)}:${random.integer(1, 80)}: error: ${sentence(random).slice(0, 60)}`,
    () =>
      `==================== ${random.integer(1, 300)} passed, ${random.integer(0, 9)} failed in ${random.integer(0, 99)}.${random.integer(10, 99)}s ====================`,
    () => `test ${snakeCase(random, 3)} ... ${random.pick(['ok', 'ok', 'FAILED', 'ignored'])}`,
    () =>
      `-rw-r--r--  1 user staff  ${random.integer(10, 99999)} Nov ${random.integer(1, 28)} 10:${pad(random.integer(0, 59))} ${snakeCase(random, 2)}.${random.pick(['ts', 'json', 'md'])}`,
    () => `+  ${camelCase(random, 2)}(${random.integer(0, 99)});`,
    () => `commit ${uuid(random).replaceAll('-', '')}${random.integer(1000, 9999).toString(16)}`,
  ])();
}

function chineseSentence(random: Random): string {
  const words: string[] = [];
  for (let index = 0; index < random.integer(5, 18); index++) {
    words.push(random.pick(chineseWords));
    if (random.chance(0.12)) words.push(random.pick(chinesePunctuation));
  }
  return words.join('') + random.pick(['。', '？', '！']);
}

function japaneseSentence(random: Random): string {
  const words: string[] = [];
  for (let index = 0; index < random.integer(4, 14); index++) {
    words.push(random.pick(japanesePhrases));
    if (random.chance(0.1)) words.push('、');
  }
  return words.join('') + '。';
}

function koreanSentence(random: Random): string {
  const words: string[] = [];
  for (let index = 0; index < random.integer(3, 10); index++) words.push(random.pick(koreanWords));
  return words.join(' ') + '. ';
}

function base64Blob(random: Random, size: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const characters: string[] = [];
  const wrap = random.chance(0.5) ? 76 : 0;
  const body = Math.max(4, size - (size % 4));
  for (let index = 0; index < body; index++) {
    characters.push(alphabet[random.integer(0, 63)]!);
    if (wrap && (index + 1) % wrap === 0) characters.push('\n');
  }
  const prefix = random.chance(0.3) ? `data:${random.pick(['image/png', 'application/pdf'])};base64,` : '';
  return prefix + characters.join('') + (random.chance(0.5) ? '==' : '');
}

function multilingualSentence(random: Random): string {
  const words = random.pick([europeanWords, europeanWords, cyrillicWords, greekWords]);
  const parts: string[] = [];
  for (let index = 0; index < random.integer(5, 16); index++) {
    parts.push(random.chance(0.15) ? random.pick(functionWords) : random.pick(words));
    if (random.chance(0.08)) parts.push(random.pick(['😀', '🚀', '👍', '✨', '—', '«', '»', '–']));
  }
  const text = parts.join(' ');
  return text[0]!.toUpperCase() + text.slice(1) + random.pick(['.', '.', '?', '!']);
}
