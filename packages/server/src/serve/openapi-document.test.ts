import { InMemoryCompactionStore } from '@compaction/core';
import { createRecallTool } from '@compaction/recall';
import { sampleCompactionRecord } from '@compaction/testing/vitest';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import type { HttpError } from '../errors/http-error.js';
import { operations, resolve, schemaProblems } from './__fixtures__/openapi-check.js';
import { openApiDocument } from './openapi-document.js';
import { archiveExamples } from './openapi-examples.js';
import { matchRoute, routes } from './routes.js';

// Not on the Node 22 compatibility run: the OpenAPI document is plain data, with no module of the runtime (the
// Node 20 run has run it).
describeOnFullRun('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and documents exactly the routes the server answers', () => {
    expect(openApiDocument.openapi).toBe('3.1.0');
    const documented = operations().map(({ method, path }) => `${method} ${path}`);
    expect(documented.sort()).toEqual(routes.map(({ method, path }) => `${method} ${path}`).sort());
  });

  it('documents, on each operation, every status the router answers on its path', () => {
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    const statusOf = (method: string, path: string) => {
      try {
        matchRoute(method, path);
        return undefined;
      } catch (error) {
        return (error as HttpError).status;
      }
    };
    for (const route of routes) {
      const where = `${route.method} ${route.path}`;
      const fill = (value: string) => route.path.replace(/\{\w+\}/g, value);
      // The token is checked before any route is matched: every operation may answer 401.
      const statuses = new Set([401]);
      for (const method of methods) statuses.add(statusOf(method, fill('x')) ?? 200);
      // A path parameter that names nothing, and one that is not valid percent-encoding.
      for (const value of ['%00', 'a%20b', 'x'.repeat(129), '%E0%A4%A']) {
        statuses.add(statusOf(route.method, fill(value)) ?? 200);
      }
      statuses.delete(200);
      const operation = operations().find(
        (entry) => entry.method === route.method && entry.path === route.path,
      );
      const documented = Object.keys(operation!.responses);
      for (const status of statuses) expect(documented, where).toContain(String(status));
    }
  });

  it('resolves every reference', () => {
    const references: string[] = [];
    const visit = (value: unknown) => {
      if (typeof value !== 'object' || value === null) return;
      for (const [key, item] of Object.entries(value)) {
        if (key === '$ref' && typeof item === 'string') references.push(item);
        else visit(item);
      }
    };
    visit(openApiDocument);
    expect(references.length).toBeGreaterThan(50);
    for (const reference of new Set(references))
      expect(() => resolve({ $ref: reference }), reference).not.toThrow();
  });

  it('gives each operation request and answer examples that validate against their schemas', () => {
    let checked = 0;
    for (const operation of operations()) {
      const where = `${operation.method} ${operation.path}`;
      const bodies = [
        ...(operation.requestBody === undefined ? [] : [['request', operation.requestBody] as const]),
        ...Object.entries(operation.responses).flatMap(([status, { json }]) =>
          json === undefined ? [] : [[status, json] as const],
        ),
      ];
      for (const [name, { schema, examples }] of bodies) {
        expect(schema, `${where} ${name}`).toBeDefined();
        for (const [exampleName, value] of Object.entries(examples)) {
          expect(schemaProblems(schema!, value), `${where} ${name} example ${exampleName}`).toEqual([]);
          checked++;
        }
      }
      const success = Object.keys(operation.responses).find((status) => status.startsWith('2'));
      expect(success, where).toBeDefined();
      if (operation.requestBody !== undefined) {
        expect(
          Object.keys(operation.requestBody.examples).length,
          `${where} request examples`,
        ).toBeGreaterThan(0);
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('shows an archived item’s part as the recall tool answers it', async () => {
    const store = new InMemoryCompactionStore();
    await store.append({ ...sampleCompactionRecord('s', 1), archived: [archiveExamples.whole] });
    const tool = createRecallTool({ store, sessionId: 's' });
    const answer = await tool.execute({ handle: archiveExamples.whole.handle, fromLine: 2, toLine: 3 });
    expect({ ...archiveExamples.whole, text: answer.text, truncated: answer.truncated }).toEqual(
      archiveExamples.lines,
    );
  });

  it('has schemas that refuse what the server refuses', () => {
    const compactRequest = { $ref: '#/components/schemas/CompactRequest' };
    expect(schemaProblems(compactRequest, { messages: [] })).not.toEqual([]);
    expect(schemaProblems(compactRequest, { conversation: [], format: 'claude-code' })).not.toEqual([]);
    expect(schemaProblems({ $ref: '#/components/schemas/SessionChange' }, { id: 'x' })).not.toEqual([]);
  });
});
