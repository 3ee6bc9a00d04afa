import { Ajv2020 } from 'ajv/dist/2020.js';
import { openApiDocument } from '../openapi-document.js';

// What the tests need of the OpenAPI document: its operations, the schema of each body, and a JSON Schema
// 2020-12 validator (Ajv) that resolves the document's references.

type Json = Record<string, unknown>;

/** One media type of a request or an answer: its schema and its named examples. */
export interface Body {
  schema?: Json;
  examples: Record<string, unknown>;
}

/** One operation of the document. */
export interface Operation {
  method: string;
  path: string;
  requestBody?: Body;
  /** The JSON answers by status (an answer without a JSON body has no entry in `json`). */
  responses: Record<string, { json?: Body; contentTypes: string[] }>;
}

const httpMethods = ['get', 'post', 'put', 'patch', 'delete'];

/** Follows a `#/...` reference within the document. */
export function resolve<T = Json>(value: Json): T {
  const ref = value.$ref;
  if (typeof ref !== 'string') return value as T;
  let target: unknown = openApiDocument;
  for (const key of ref.replace(/^#\//, '').split('/')) target = (target as Json)?.[key];
  if (target === undefined) throw new Error(`the reference ${ref} leads nowhere`);
  return resolve(target as Json);
}

function body(content: Json | undefined): Body | undefined {
  const media = content?.['application/json'] as Json | undefined;
  if (media === undefined) return undefined;
  const examples = Object.fromEntries(
    Object.entries((media.examples as Record<string, { value: unknown }> | undefined) ?? {}).map(
      ([name, { value }]) => [name, value],
    ),
  );
  return { ...(media.schema === undefined ? {} : { schema: media.schema as Json }), examples };
}

/** Every operation of the document, in its order. */
export function operations(): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries(openApiDocument.paths as Record<string, Json>)) {
    for (const method of httpMethods) {
      const operation = item[method] as Json | undefined;
      if (operation === undefined) continue;
      const requestBody = operation.requestBody as Json | undefined;
      const responses = Object.fromEntries(
        Object.entries(operation.responses as Record<string, Json>).map(([status, response]) => {
          const resolved = resolve(response);
          const content = resolved.content as Json | undefined;
          const json = body(content);
          return [
            status,
            { ...(json === undefined ? {} : { json }), contentTypes: Object.keys(content ?? {}) },
          ];
        }),
      );
      const request = requestBody === undefined ? undefined : body(requestBody.content as Json);
      found.push({
        method: method.toUpperCase(),
        path,
        ...(request === undefined ? {} : { requestBody: request }),
        responses,
      });
    }
  }
  return found;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(openApiDocument, 'openapi.json');

/** The problems of `value` against a schema of the document (references resolved); empty when it is valid. */
export function schemaProblems(schema: Json, value: unknown): string[] {
  const anchored = JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi.json#/'));
  const validate = ajv.compile(anchored);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message}`);
}
