// The HTTP API (see /docs): JSON in, JSON out. A refusal is {"code", "message",
// "message_en"[, "parameter"]}: ApiError keeps all of it, so the page can show the refusal in
// the reader's language (i18n.js serverMessage) and branch on the stable `code`.

export class ApiError extends Error {
  constructor(status, body) {
    const detail = body && typeof body === "object" ? (body.detail && typeof body.detail === "object" ? body.detail : body) : null;
    super((detail && detail.message) || "");
    this.status = status;
    this.code = detail ? detail.code : undefined;
    this.message_en = detail ? detail.message_en : undefined;
    this.parameter = detail ? detail.parameter : undefined;
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
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null; // not JSON (an HTML error page from a proxy): the status says enough
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}
