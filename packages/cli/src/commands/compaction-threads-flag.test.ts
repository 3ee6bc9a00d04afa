import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';

// `--compaction-threads` is read before a server starts: a value that is not plain digits stops the command with
// a usage error, and nothing listens.
describe('--compaction-threads', () => {
  it.each(['serve', 'proxy'])('takes plain digits only, in %s', async (command) => {
    for (const value of ['-1', '1.5', '1e3', '0x2', 'two', '']) {
      const result = await runCommand([command, `--compaction-threads=${value}`, '--port', '0'], {
        cwd: temporaryDirectory(),
      });
      expect(result.code, `${command} --compaction-threads "${value}": ${result.stderr}`).toBe(1);
      expect(result.stderr).toContain('--compaction-threads must be an integer of at least 0');
    }
  });

  it('is listed in the help of serve and proxy', async () => {
    for (const command of ['serve', 'proxy']) {
      const { code, stdout } = await runCommand([command, '--help']);
      expect(code).toBe(0);
      expect(stdout).toContain('--compaction-threads <n>');
    }
  });
});
