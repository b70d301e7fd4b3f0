// The HTTP API (see /docs): JSON in, JSON out; errors carry a Spanish `message`.

export class ApiError extends Error {
  constructor(status, body) {
    const detail = body && (body.detail || body);
    super((detail && detail.message) || `HTTP ${status}`);
    this.status = status;
    this.code = detail && detail.code;
  }
}

export async function api(path, body = undefined, method = body === undefined ? "GET" : "POST") {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}
