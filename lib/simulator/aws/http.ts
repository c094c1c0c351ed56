// Small HTTP helpers shared by the simulated EKS and STS endpoints.
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";

const MAX_BODY = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("request body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function requestId(): string {
  return randomUUID();
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-amzn-requestid": requestId(),
    ...headers,
  });
  res.end(text);
}

export function sendXml(res: ServerResponse, status: number, xml: string): void {
  res.writeHead(status, { "content-type": "text/xml", "content-length": Buffer.byteLength(xml), "x-amzn-requestid": requestId() });
  res.end(xml);
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);
}

/** Opaque pagination token: base64url of the next offset and the query it belongs to. */
export function encodeToken(offset: number, scope: string): string {
  return Buffer.from(JSON.stringify({ o: offset, s: scope })).toString("base64url");
}

export function decodeToken(token: string, scope: string): number | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { o?: unknown; s?: unknown };
    return typeof parsed.o === "number" && parsed.o >= 0 && parsed.s === scope ? parsed.o : undefined;
  } catch {
    return undefined;
  }
}
