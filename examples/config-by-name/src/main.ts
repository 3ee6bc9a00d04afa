import { createCompactor, resolveCompactionConfig, StrategyNotFoundError } from '@compaction/core';
import { generateCodingHistory } from '@compaction/testing';
import { loadConfig } from './load-config.js';
import { createRegistry } from './registry.js';
import { formatReport } from './report.js';

// The strategies are named in a plain JSON file; the registry turns the names into strategies.
const config = loadConfig(new URL('../compaction.config.json', import.meta.url));
const registry = createRegistry();
const { strategy, fallback } = await resolveCompactionConfig(config, registry);
const compactor = createCompactor({
  strategy,
  ...(fallback === undefined ? {} : { fallback }),
  budget: { contextWindow: 32_000, ...config.budget },
});

console.log(`Registered strategies: ${registry.names().join(', ')}`);
console.log(`Config strategy: ${JSON.stringify(config.strategy)}`);

// A synthetic coding-agent session: large tool results, as in a real one.
const messages = generateCodingHistory({ messages: 120, seed: 7 });
const check = compactor.check(messages);
console.log(
  `\nThe conversation holds ${messages.length} messages, ${check.tokens.toLocaleString('en-US')} tokens ` +
    `(limit ${check.limit.toLocaleString('en-US')}, trigger ${compactor.budget.trigger?.toLocaleString('en-US')}, ` +
    `target ${compactor.budget.target.toLocaleString('en-US')}).`,
);
const result = await compactor.prepare(messages);
if (result.event === undefined) console.log(`Nothing to compact (${result.skipped ?? 'no change'}).`);
else console.log(formatReport(result.event));

// A name that is neither registered nor installed is a typed error that says which package to install.
try {
  await resolveCompactionConfig({ strategy: ['tool-result-truncation', 'keep-everything'] }, registry);
} catch (error) {
  if (!StrategyNotFoundError.isInstance(error)) throw error;
  console.log(`\nAn unknown name: ${error.message}`);
}
