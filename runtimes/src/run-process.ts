import { spawn } from 'node:child_process';

/** How long one runtime may take to run the scenario before it is stopped. */
export const runtimeTimeoutMs = 60_000;

/** Runs a command to its end and gives its standard output; fails with its standard error otherwise. */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: 'pipe' });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), runtimeTimeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const output = Buffer.concat(stdout).toString('utf8');
      if (code === 0) return resolve(output);
      const why = signal ? `was stopped by ${signal}` : `exited with ${code}`;
      reject(new Error(`${command} ${args.join(' ')} ${why}:\n${Buffer.concat(stderr).toString('utf8')}`));
    });
  });
}

/** A process that runs until it is stopped, with what it printed so far for error reports. */
export function startProcess(command: string, args: string[], options: { cwd: string }) {
  const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    // The start and the end of the output are what explain a failure; the middle is not kept.
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<string>((resolve) => {
    child.on('close', (code, signal) => resolve(`exited with ${signal ?? code}`));
    child.on('error', (error) => resolve(`could not start: ${error.message}`));
  });
  return {
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
