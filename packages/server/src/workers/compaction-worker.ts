/**
 * A compaction thread of `compaction serve` and `compaction proxy`: answers `POST /v1/compact` requests from
 * their raw bodies with the same route handler as the event loop, so reading, converting, counting, compacting
 * and writing the answer of a large conversation happen here while the server keeps answering everyone else;
 * runs the strategies of sessions' and proxied conversations' compactions on large histories; and writes the
 * conversations that sessions' answers carry.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createInstalledStrategyRegistry } from '../config/installed-strategies.js';
import { CompactionLimiter } from '../serve/compaction-limiter.js';
import { sendError } from '../serve/json-response.js';
import { ProviderPool } from '../serve/provider-pool.js';
import { readObjectBody } from '../serve/request-body.js';
import { requestSettings } from '../serve/request-settings.js';
import { type RouteHandler, routeHandlers, type ServerParts } from '../serve/route-handlers.js';
import type {
  CompactionThreadAnswer,
  CompactionThreadTask,
  CompactionWorkerData,
  CompactTask,
} from './compact-task.js';
import { type RecordedAnswer, RecordedResponse, replayedRequest } from './replayed-exchange.js';
import { runStrategyTask } from './run-strategy-task.js';
import { runWriteTask } from './run-write-task.js';
import type { WorkerReply, WorkerRequest } from './worker-pool.js';

const data = workerData as CompactionWorkerData;

const port = parentPort;
if (port === null) throw new Error('compaction-worker runs as a worker thread only');

const onTheEventLoop = (part: string) => new Error(`${part} is kept on the event loop, not in a thread`);

/** What only the event loop keeps (sessions, streams): a thread's handler touching it fails loudly. */
function keptOnTheEventLoop<T>(part: string): T {
  return new Proxy(
    {},
    {
      get: () => {
        throw onTheEventLoop(part);
      },
    },
  ) as T;
}

// Aborted when the server's stop passes its timeout, as the event loop's providers are.
const cutOff = new AbortController();

/** What a thread works with, set up once: the registry by name, and the handler of `POST /v1/compact`. */
interface ThreadParts {
  registry: Awaited<ReturnType<typeof createInstalledStrategyRegistry>>;
  compact: RouteHandler;
}

/** The parts, set up once per thread: the registry by name, the operator's providers, the policy. */
async function setUp(): Promise<ThreadParts> {
  const registry = await createInstalledStrategyRegistry();
  // Every strategy the server has, by name (bundled, or a package loaded by name); one that cannot be
  // loaded here makes the thread unavailable, and the server compacts on its event loop instead.
  for (const name of data.strategyNames) await registry.definition(name);
  const providers = new ProviderPool(data.settings.provider, data.environment, cutOff.signal);
  const parts: ServerParts = {
    registry,
    // The server's limiter admitted the request before it came here.
    limiter: new CompactionLimiter(Number.MAX_SAFE_INTEGER, 0),
    idleMs: data.idleMs,
    settingsFor: (config) => requestSettings(config, data.policy, data.settings, registry),
    providerFor: (settings) => providers.get(settings.provider?.model),
    readBody: (request, allowed) => readObjectBody(request, data.maxBodyBytes, allowed),
    sessions: keptOnTheEventLoop('a session'),
    inFlight: keptOnTheEventLoop('the requests in flight'),
    buildSession: () => Promise.reject(onTheEventLoop('a session')),
    sessionOf: () => Promise.reject(onTheEventLoop('a session')),
  };
  return { registry, compact: routeHandlers(parts)['POST /v1/compact'] };
}

const threadParts = setUp();
threadParts.then(
  () => port.postMessage({ type: 'ready' } satisfies WorkerReply<CompactionThreadAnswer>),
  (error: unknown) =>
    port.postMessage({
      type: 'unavailable',
      reason: (error as Error).message,
    } satisfies WorkerReply<CompactionThreadAnswer>),
);

/** The answer to one request, errors answered as the event loop answers them. */
async function answer(compact: RouteHandler, task: CompactTask): Promise<RecordedAnswer> {
  const request = replayedRequest(task.body, task.headers, 'POST', '/v1/compact');
  const response = new RecordedResponse();
  try {
    await compact(request, response.asServerResponse(), {});
  } catch (error) {
    sendError(request, response.asServerResponse(), error);
  }
  return response.answer();
}

port.on('message', async (message: WorkerRequest<CompactionThreadTask>) => {
  if (message.type === 'abort') {
    cutOff.abort(new Error(message.reason));
    return;
  }
  // Tasks come once the thread said it is ready, so its parts are there.
  const { registry, compact } = await threadParts;
  const { task } = message;
  if (task.kind === 'write') {
    const written = await runWriteTask(task);
    const reply: WorkerReply<CompactionThreadAnswer> = { type: 'answer', id: message.id, answer: written };
    // Moved back, not copied: the event loop only sends these bytes on.
    port.postMessage(reply, written.kind === 'written' ? [written.json.buffer as ArrayBuffer] : []);
    return;
  }
  const reply: WorkerReply<CompactionThreadAnswer> = {
    type: 'answer',
    id: message.id,
    answer: task.kind === 'strategy' ? await runStrategyTask(registry, task) : await answer(compact, task),
  };
  port.postMessage(reply);
});
