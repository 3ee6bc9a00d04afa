// The scenario's host in Node, Bun and Deno: prints the report as one line of JSON.
import { runScenario } from './scenario.js';

console.log(JSON.stringify(await runScenario()));
