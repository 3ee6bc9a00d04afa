import type { CommandRecord } from './artifact-trail.js';

const exitPatterns: readonly RegExp[] = [
  /<returncode>\s*(-?\d+)\s*<\/returncode>/i,
  /\bexit(?:ed)?(?: with)?(?: code| status)\s*[:=]?\s*(-?\d+)/i,
  /\breturn ?code\s*[:=]\s*(-?\d+)/i,
  /\bprocess exited with (?:code|status)\s*(-?\d+)/i,
];

/**
 * The exit status a tool result reports, in the shapes agents commonly use (`<returncode>1</returncode>`,
 * `Exit code: 1`, `[Command finished with exit code 1]`, `exited with status 1`...). Falls back to the
 * result's error flag: `error` when set, `ok` otherwise.
 */
export function exitStatusOf(output: string, isError: boolean | undefined): CommandRecord['status'] {
  for (const pattern of exitPatterns) {
    const match = pattern.exec(output);
    if (match?.[1] !== undefined) return Number(match[1]);
  }
  return isError ? 'error' : 'ok';
}

/** Whether a status means the command failed. */
export function isFailure(status: CommandRecord['status']): boolean {
  return status === 'error' || (typeof status === 'number' && status !== 0);
}
