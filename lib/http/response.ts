// One JSON envelope for every route: data as is, errors as { error: { code, message } }.
import { ZodError } from "zod";
import { AppError, oneLine } from "../errors";
import { logger } from "../logger";

export function json(data: unknown, init?: ResponseInit): Response {
  return Response.json(data, init);
}

export function errorResponse(status: number, code: string, message: string, headers?: HeadersInit): Response {
  return Response.json({ error: { code, message } }, { status, headers });
}

/** Maps thrown values to the envelope: validation → 400, typed app errors → their status, the rest → 500. */
export function fromError(err: unknown): Response {
  if (err instanceof ZodError) {
    const message = err.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
    return errorResponse(400, "invalid_request", message);
  }
  if (err instanceof AppError) return errorResponse(err.status, err.code, err.message);
  logger.error({ err: oneLine(err) }, "unhandled error in route");
  return errorResponse(500, "internal", "internal error");
}
