import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

/** The package folder and its built binary. */
export const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const binary = join(packageDirectory, 'dist', 'bin.js');
export const example = join(packageDirectory, 'examples', 'coding-session.json');

/** What a run of the binary printed and returned. */
export interface BinaryResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/bin.js ...args` with optional standard input, directory and environment. */
export function runBinary(
  args: string[],
  options: { input?: string | Buffer; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<BinaryResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binary, ...args], {
      cwd: options.cwd ?? packageDirectory,
      env: { PATH: process.env.PATH, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** A fresh temporary folder, inside the run's folder that the global setup removes when the run ends. */
export function temporaryDirectory(): string {
  return mkdtempSync(join(inject('temporaryRoot'), 'compaction-cli-'));
}

/** Writes a file in a fresh temporary folder and returns its path. */
export function temporaryFile(name: string, content: string | Buffer): string {
  const path = join(temporaryDirectory(), name);
  writeFileSync(path, content);
  return path;
}

/** JSON a test reads without declaring its whole shape. */
// biome-ignore lint/suspicious/noExplicitAny: tests assert on loosely typed JSON answers.
export type LooseJson = any;
