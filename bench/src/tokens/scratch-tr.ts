import { createTextEstimator } from '@compaction/token-estimator';
import { get_encoding } from 'tiktoken';
import { loadTranscriptTexts } from './transcript-texts.js';

const e = get_encoding('o200k_base');
const f = createTextEstimator();
const d = new TextDecoder();
const t = loadTranscriptTexts().find((x) => x.name.endsWith(process.argv[2]!))!;
const rows = t.texts
  .map((s) => ({ s, ex: e.encode(s, [], []).length, est: f.countText(s) }))
  .sort((a, b) => a.est - a.ex - (b.est - b.ex));
for (const r of rows.slice(0, 3)) {
  console.log(r.ex, r.est, r.s.length);
  const ids = e.encode(r.s.slice(0, 600), [], []);
  console.log([...ids].map((i) => d.decode(e.decode(new Uint32Array([i])))).join('|'));
}
e.free();
