// A worker for the worker pool's tests: each task says what the thread does with it, in `action`, or in the
// JSON body of a `POST /v1/compact` task.
import { parentPort, workerData } from 'node:worker_threads';

// Set up at once, unless the test says the thread cannot be.
parentPort.postMessage(
  workerData?.unavailable ? { type: 'unavailable', reason: 'not set up' } : { type: 'ready' },
);

const actionOf = (task) =>
  task.body === undefined ? task : JSON.parse(Buffer.from(task.body).toString('utf8'));

parentPort.on('message', (message) => {
  if (message.type !== 'task') return;
  const { id, task } = message;
  const { action, value } = actionOf(task);
  if (action === 'echo') parentPort.postMessage({ type: 'answer', id, answer: { echo: value } });
  else if (action === 'answer') {
    const body = JSON.stringify({ answered: value });
    const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };
    parentPort.postMessage({ type: 'answer', id, answer: { status: 200, headers, body } });
  } else if (action === 'throw') {
    // Uncaught, outside the message handler: the thread dies with an error.
    setImmediate(() => {
      throw new Error('scripted crash');
    });
  } else if (action === 'exit') process.exit(3);
  // `hold`: never answers, until the thread dies.
});
