import { stat } from 'node:fs/promises';

/**
 * What tells one state of a file from another: its inode (a replacement by rename gives a new one), size, and
 * the times of its last change of content and of its metadata, to the nanosecond.
 */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** The identity of the file at `path` (links followed). */
export async function fileIdentity(path: string): Promise<FileIdentity> {
  const { dev, ino, size, mtimeNs, ctimeNs } = await stat(path, { bigint: true });
  return { dev, ino, size, mtimeNs, ctimeNs };
}

/** Whether the file at `path` is still in the state `expected` describes; `false` when it is gone. */
export async function isUnchanged(path: string, expected: FileIdentity): Promise<boolean> {
  try {
    const current = await fileIdentity(path);
    return (
      current.dev === expected.dev &&
      current.ino === expected.ino &&
      current.size === expected.size &&
      current.mtimeNs === expected.mtimeNs &&
      current.ctimeNs === expected.ctimeNs
    );
  } catch {
    return false;
  }
}
