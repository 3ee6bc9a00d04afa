// The scenario's host in workerd: a Worker whose every request answers with the report as JSON.
import { runScenario } from './scenario.js';

export default {
  async fetch(): Promise<Response> {
    try {
      return Response.json(await runScenario());
    } catch (error) {
      return new Response(error instanceof Error ? (error.stack ?? error.message) : String(error), {
        status: 500,
      });
    }
  },
};
