import { cl100kProfile, createTextEstimator, o200kProfile } from '@compaction/token-estimator';
import { contentClasses, generateCorpus } from './corpus.js';
import { createExactCounter } from './exact-counters.js';

for (const [encoding, profile] of [
  ['o200k_base', o200kProfile],
  ['cl100k_base', cl100kProfile],
] as const) {
  const exact = createExactCounter(encoding);
  const fast = createTextEstimator({ profile });
  const out: string[] = [];
  for (const seed of [1, 2]) {
    const corpus = generateCorpus({ seed, samplesPerClass: 40 });
    let line = `${encoding} seed ${seed}: `;
    let min = 9,
      max = -9;
    for (const c of contentClasses) {
      let e = 0,
        f = 0;
      for (const s of corpus)
        if (s.contentClass === c) {
          e += exact.count(s.text);
          f += fast.countText(s.text);
        }
      const err = f / e - 1;
      min = Math.min(min, err);
      max = Math.max(max, err);
      line += `\n  ${c.padEnd(28)} ${(err * 100).toFixed(1)}%`;
    }
    out.push(line + `\n  range ${(min * 100).toFixed(1)} .. ${(max * 100).toFixed(1)}`);
  }
  console.log(out.join('\n'));
  exact.free();
}
