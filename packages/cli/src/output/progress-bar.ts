/** A one-line progress bar on a terminal, redrawn at most every 100 ms; nothing when not a terminal. */
export function createProgressBar(
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
  label: string,
  options: { minimumTotal?: number } = {},
) {
  let lastDraw = 0;
  let drawn = false;
  const enabled = stream.isTTY === true;
  return {
    update(done: number, total: number): void {
      if (!enabled || total < (options.minimumTotal ?? 0)) return;
      const now = Date.now();
      if (now - lastDraw < 100 && done < total) return;
      lastDraw = now;
      drawn = true;
      const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - label.length - 20));
      const filled = Math.round((done / Math.max(total, 1)) * width);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`);
    },
    /** Clears the line, so the report starts on a clean one. */
    finish(): void {
      if (drawn) stream.write('\r\u001b[2K');
    },
  };
}
