/**
 * Loaded into each server of the serve bench with `--import`: how much of the load's wall time the server's
 * event loop was busy (its utilization) and how late its timers ran (the delay's p99 and max), measured from
 * the bench's SIGUSR2 (the load starts) and written as JSON to `COMPACTION_BENCH_EVENT_LOOP_FILE` on exit.
 * Plain JavaScript, so that the built CLI, started by `node`, can load it too.
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const file = process.env.COMPACTION_BENCH_EVENT_LOOP_FILE;
if (file !== undefined) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  let start;
  process.on('SIGUSR2', () => {
    delay.enable();
    delay.reset();
    start = performance.eventLoopUtilization();
  });
  process.on('exit', () => {
    if (start === undefined) return;
    const used = performance.eventLoopUtilization(start);
    writeFileSync(
      file,
      JSON.stringify({
        utilization: used.utilization,
        delayP99Milliseconds: delay.percentile(99) / 1e6,
        delayMaxMilliseconds: delay.max / 1e6,
      }),
    );
  });
}
