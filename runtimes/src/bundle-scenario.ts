import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const source = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/**
 * Bundles the scenario with esbuild as an application would ship it to any runtime: one ES module,
 * `scenario.js`, for no platform in particular (no Node built-ins), and the hosts (`host-print.js`,
 * `host-worker.js`, `host-page.js`) that import it, so every runtime runs the same bytes.
 */
export async function bundleScenario(directory: string): Promise<void> {
  const common = {
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    logLevel: 'error',
  } as const;
  await build({ ...common, entryPoints: [source('./scenario.ts')], outdir: directory });
  await build({
    ...common,
    entryPoints: [source('./host-print.ts'), source('./host-worker.ts'), source('./host-page.ts')],
    outdir: directory,
    external: ['./scenario.js'],
  });
}
