/**
 * The environment an application's installs run in: this process's, less what pnpm and npm pass to the
 * scripts they run (`npm_config_*` from the repository's own `.npmrc`, `npm_execpath`...), which would
 * otherwise configure the installs as if they ran inside the repository.
 */
export function cleanEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm|pnpm)_/i.test(key) && key !== 'INIT_CWD' && key !== 'NODE_OPTIONS') environment[key] = value;
  }
  return { ...environment, ...extra };
}
