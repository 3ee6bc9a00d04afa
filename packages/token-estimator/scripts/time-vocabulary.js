/**
 * Times the exact counter of src/vocabulary (from the built dist: run `pnpm --filter
 * @compaction/token-estimator build` first) against tiktoken's WebAssembly encoder on English, Russian, Chinese
 * and hex text, and reports each vocabulary's first-use load time and heap. Not a test: numbers vary by machine.
 *
 * Usage: node --expose-gc scripts/time-vocabulary.js [megabytes per text, default 2]
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { get_encoding } from 'tiktoken';

const packageDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const importStart = performance.now();
const { loadVocabulary } = await import(
  pathToFileURL(resolve(packageDirectory, 'dist/vocabulary/vocabulary.js')).href
);
const importMilliseconds = performance.now() - importStart;
const megabytes = Number(process.argv[2] ?? 2);

/** Heap in use after a collection, when `--expose-gc` allows one. */
function heapInUse() {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
}

// First use of each vocabulary, before anything else takes memory: decoding and indexing its fingerprints.
console.log(`importing the module (both vocabularies' strings): ${importMilliseconds.toFixed(1)} ms`);
const vocabularies = new Map();
for (const encoding of ['o200k_base', 'cl100k_base']) {
  const heapBefore = heapInUse();
  const loadStart = performance.now();
  const vocabulary = loadVocabulary(encoding);
  vocabulary.countText('warm up');
  const loadMilliseconds = performance.now() - loadStart;
  const heapAfter = heapInUse();
  vocabularies.set(encoding, vocabulary);
  console.log(
    `${encoding}: first use ${loadMilliseconds.toFixed(1)} ms, heap +${((heapAfter - heapBefore) / 1e6).toFixed(1)} MB`,
  );
}

/** A deterministic sequence, so every run times the same text. */
function* sequence() {
  let state = 12345;
  for (;;) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    yield state >>> 8;
  }
}

/** Text of about `megabytes` MB of UTF-8, words drawn from `words` and joined by `join`. */
function textOf(words, join) {
  const numbers = sequence();
  const parts = [];
  let bytes = 0;
  while (bytes < megabytes * 1e6) {
    const word = words(numbers);
    parts.push(word);
    bytes += Buffer.byteLength(word) + 1;
  }
  return parts.join(join);
}

const english =
  'the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her all she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three'.split(
    ' ',
  );
const russianWords =
  'и в не на я быть он с что а по это она этот к но они мы как из у который то за свой что весь год от так о для ты же все тот мочь вы человек такой его сказать только или еще бы себя один как уже до время если сам когда другой вот говорить наш мой знать стать при чтобы дело жизнь кто первый очень два день ее новый рука даже во со раз где там под можно ну какой после их работа без самый потом надо хотеть ли слово идти большой должен место иметь ничто'.split(
    ' ',
  );
const chineseCharacters =
  '的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生自会那后能对着事其里所去行过家十用发天如然作方成者多日都三小军二无同么经法当起与好看学进种将还分此心前面又定见只主没公从'.split(
    '',
  );
const punctuation = ['，', '。', '、', '；'];

const kinds = [
  ['English', textOf((numbers) => english[numbers.next().value % english.length], ' ')],
  ['Russian', textOf((numbers) => russianWords[numbers.next().value % russianWords.length], ' ')],
  [
    'Chinese',
    textOf((numbers) => {
      let sentence = '';
      const length = 4 + (numbers.next().value % 20);
      for (let index = 0; index < length; index++) {
        sentence += chineseCharacters[numbers.next().value % chineseCharacters.length];
      }
      return sentence + punctuation[numbers.next().value % punctuation.length];
    }, ''),
  ],
  [
    'hex',
    textOf((numbers) => (numbers.next().value * 2654435761).toString(16).padStart(8, '0').repeat(5), '\n'),
  ],
];

for (const [encoding, vocabulary] of vocabularies) {
  console.log(encoding);
  const encoder = get_encoding(encoding);
  for (const [name, text] of kinds) {
    const bytes = Buffer.byteLength(text);
    const time = (count) => {
      let best = Number.POSITIVE_INFINITY;
      let result = 0;
      for (let round = 0; round < 3; round++) {
        const start = performance.now();
        result = count(text);
        best = Math.min(best, performance.now() - start);
      }
      return { result, megabytesPerSecond: bytes / 1e6 / (best / 1000) };
    };
    const ours = time((input) => vocabulary.countText(input));
    const theirs = time((input) => encoder.encode_ordinary(input).length);
    console.log(
      `  ${name.padEnd(8)} ${(bytes / 1e6).toFixed(1)} MB: ${ours.megabytesPerSecond.toFixed(1)} MB/s, tiktoken ${theirs.megabytesPerSecond.toFixed(1)} MB/s (${(ours.megabytesPerSecond / theirs.megabytesPerSecond).toFixed(2)}×)${ours.result === theirs.result ? '' : ` COUNTS DIFFER: ${ours.result} vs ${theirs.result}`}`,
    );
  }
  encoder.free();
}
