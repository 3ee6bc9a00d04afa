/** A JSON response: its status and parsed body (`undefined` for an empty one, such as a 204). */
export interface JsonResponse {
  status: number;
  body: Record<string, unknown> | undefined;
}

/** Sends a JSON request to the server and parses the JSON answer (errors too: they are `{"error": {...}}`). */
export async function request(url: string, method: string, body?: unknown): Promise<JsonResponse> {
  const response = await fetch(url, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}
