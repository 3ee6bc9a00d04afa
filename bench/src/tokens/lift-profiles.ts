/**
 * Prints the shipped profiles with the script allowances and the emoji bound of script-allowances.ts applied
 * again, without refitting them: what fit-profiles.ts does after its fit, for when only the allowance texts or
 * the bounds changed. `pnpm --filter @compaction/bench exec tsx src/tokens/lift-profiles.ts`.
 */
import { cl100kProfile, o200kProfile } from '@compaction/token-estimator';
import { createExactCounter } from './exact-counters.js';
import { withEmojiBound, withScriptAllowances } from './script-allowances.js';
import { allowanceLanguages, catalogTexts, fittedLanguages } from './translation-catalogs.js';

const naturalTexts = [
  ...catalogTexts(fittedLanguages, false),
  ...catalogTexts(allowanceLanguages, false),
  ...catalogTexts(allowanceLanguages, true),
].flatMap((language) => language.texts);
for (const [encoding, profile] of [
  ['o200k_base', o200kProfile],
  ['cl100k_base', cl100kProfile],
] as const) {
  const exact = createExactCounter(encoding);
  const lifted = withEmojiBound(withScriptAllowances(profile, naturalTexts, exact.count), exact.count);
  exact.free();
  const changed = Object.entries(lifted.weights).filter(
    ([feature, weight]) => weight !== profile.weights[feature as keyof typeof profile.weights],
  );
  console.log(profile.name, JSON.stringify(Object.fromEntries(changed)));
}
