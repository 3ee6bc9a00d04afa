import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

/** Where a runtime's binary is, or why it cannot be had on this machine. */
export type RuntimeBinary = { path: string } | { unavailable: string };

/** The platform packages the npm packages `bun`, `deno` and `workerd` bring as optional dependencies. */
const platformPackages: Record<string, Record<string, { name: string; binary: string }>> = {
  bun: {
    'linux x64': { name: '@oven/bun-linux-x64', binary: 'bin/bun' },
    'linux arm64': { name: '@oven/bun-linux-aarch64', binary: 'bin/bun' },
    'darwin x64': { name: '@oven/bun-darwin-x64', binary: 'bin/bun' },
    'darwin arm64': { name: '@oven/bun-darwin-aarch64', binary: 'bin/bun' },
  },
  deno: {
    'linux x64': { name: '@deno/linux-x64-glibc', binary: 'deno' },
    'linux arm64': { name: '@deno/linux-arm64-glibc', binary: 'deno' },
    'darwin x64': { name: '@deno/darwin-x64', binary: 'deno' },
    'darwin arm64': { name: '@deno/darwin-arm64', binary: 'deno' },
  },
  workerd: {
    'linux x64': { name: '@cloudflare/workerd-linux-64', binary: 'bin/workerd' },
    'linux arm64': { name: '@cloudflare/workerd-linux-arm64', binary: 'bin/workerd' },
    'darwin x64': { name: '@cloudflare/workerd-darwin-64', binary: 'bin/workerd' },
    'darwin arm64': { name: '@cloudflare/workerd-darwin-arm64', binary: 'bin/workerd' },
  },
};

/**
 * The binary of `bun`, `deno` or `workerd`, found in the platform package its npm package installed as an
 * optional dependency. Their install scripts are not run (see pnpm-workspace.yaml): they would only link the
 * same binary, or download it from outside the registry when the optional dependency is missing.
 */
export function npmRuntimeBinary(runtime: 'bun' | 'deno' | 'workerd'): RuntimeBinary {
  const platform = `${process.platform} ${process.arch}`;
  const platformPackage = platformPackages[runtime]?.[platform];
  if (platformPackage === undefined) {
    return { unavailable: `the npm package ${runtime} has no binary this check knows for ${platform}` };
  }
  const fromHere = createRequire(import.meta.url);
  try {
    // The platform package is a dependency of the runtime's own package, not of this workspace.
    const fromRuntime = createRequire(fromHere.resolve(`${runtime}/package.json`));
    const path = join(
      dirname(fromRuntime.resolve(`${platformPackage.name}/package.json`)),
      platformPackage.binary,
    );
    if (existsSync(path)) return { path };
    return {
      unavailable: `${platformPackage.name} is installed without its binary ${platformPackage.binary}`,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      unavailable: `${platformPackage.name} is not installed (pnpm install --frozen-lockfile): ${reason}`,
    };
  }
}

/**
 * Chromium from Debian's `chromium` package (`.ci/run` installs it), or the one `CHROMIUM_PATH` names. Never a
 * browser downloaded by a tool.
 */
export function chromiumBinary(): RuntimeBinary {
  const named = process.env.CHROMIUM_PATH;
  if (named)
    return existsSync(named) ? { path: named } : { unavailable: `CHROMIUM_PATH ${named} does not exist` };
  for (const directory of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const path = join(directory, name);
      if (existsSync(path)) return { path };
    }
  }
  return {
    unavailable:
      "no chromium on PATH: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH",
  };
}
