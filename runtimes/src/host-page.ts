// The scenario's host in a browser page: posts the report, or the error, back to the server that served it.
import { runScenario } from './scenario.js';

try {
  await fetch('/result', { method: 'POST', body: JSON.stringify(await runScenario()) });
} catch (error) {
  const text =
    error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  await fetch('/error', { method: 'POST', body: text });
}
