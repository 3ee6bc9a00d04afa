import { CliError } from '../errors/cli-error.js';

/**
 * Why an output file was not written: it exists and the user may not write it (`not-writable`), it is not
 * something a conversation can be written to (`not-a-file`: a folder, or a device or FIFO given to
 * `--in-place`), or, with `--in-place`, it changed between being read and being replaced (`changed`: another
 * run or an editor wrote it; nothing was written).
 */
export type OutputFileProblem = 'not-writable' | 'not-a-file' | 'changed';

/**
 * An output file the command refused to write, with the path and the problem. A usage error (exit code 1):
 * the user picks another file, fixes its permissions, or runs the command again.
 */
export class OutputFileError extends CliError {
  static override readonly marker: string = 'compaction.error.output-file';
  override readonly name: string = 'OutputFileError';
  readonly path: string;
  readonly problem: OutputFileProblem;

  constructor({ path, problem, message }: { path: string; problem: OutputFileProblem; message: string }) {
    super({ reason: 'usage', message });
    this.path = path;
    this.problem = problem;
  }
}

/** `--in-place` found the file changed since it was read: nothing is written, the change is kept. */
export function changedFileError(path: string): OutputFileError {
  return new OutputFileError({
    path,
    problem: 'changed',
    message:
      `${path} changed while it was being compacted (another run or an editor wrote it); nothing was ` +
      'written, so that change is kept: run the command again to compact the file as it is now',
  });
}
