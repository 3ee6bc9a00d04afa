import { execFile } from 'node:child_process';

/** What a finished command printed. */
export interface CommandResult {
  stdout: string;
  stderr: string;
}

/**
 * Runs a command and resolves with its output, or rejects with an error carrying the command line, the exit
 * code and both outputs, so a failing install or snippet says what it printed.
 */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        timeout: options.timeout ?? 300_000,
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error === null) return resolve({ stdout, stderr });
        const line = [command, ...args].join(' ');
        const status = error.code ?? error.signal;
        reject(new Error(`${line} (in ${options.cwd}) failed with ${status}\n${stdout}\n${stderr}`));
      },
    );
  });
}
