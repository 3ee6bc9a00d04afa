// The loopback servers that documented commands talk to, started by check-doc-commands.mjs for the length of
// the check: a provider that refuses every request, for the page's example of a failed summarizer. It runs in
// a process of its own, since the check waits for each command synchronously.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

const refusingAnthropicPort = 4557;

export async function startLoopbackServers() {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`the loopback servers exited with ${code}`)));
  });
  return {
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill();
      }),
  };
}

function serveRefusingProvider() {
  const refusing = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'invalid_request_error', message: 'the summarizer is unavailable' },
        }),
      );
    });
  });
  refusing.once('error', (error) => {
    console.error(
      `the refusing provider cannot listen on 127.0.0.1:${refusingAnthropicPort}: ${error.message}`,
    );
    process.exit(1);
  });
  refusing.listen(refusingAnthropicPort, '127.0.0.1', () => console.log('listening'));
}

if (process.argv[2] === '--serve') serveRefusingProvider();
