// Kubernetes Status error bodies, shaped byte for byte like kube-apiserver's (field order of
// metav1.Status, Go's HTML-safe JSON escaping of <, > and &).
import { qualifiedResource, type ResourceType } from "./registry";

export interface StatusCause {
  reason?: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export class KubeError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
    readonly listMeta?: { continue?: string },
  ) {
    super(message);
  }
}

/** JSON.stringify with Go's encoding/json escaping, so messages match the real server's bytes. */
export function goJson(value: unknown): string {
  return escapeLikeGo(JSON.stringify(value));
}

export function escapeLikeGo(json: string): string {
  return /[<>&\u2028\u2029]/.test(json)
    ? json.replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : json;
}

export function statusObject(error: KubeError): Record<string, unknown> {
  const status: Record<string, unknown> = {
    kind: "Status",
    apiVersion: "v1",
    metadata: error.listMeta ?? {},
    status: "Failure",
    message: error.message,
    reason: error.reason,
  };
  if (error.details) {
    const { name, group, kind, causes, retryAfterSeconds } = error.details;
    const details: Record<string, unknown> = {};
    if (name !== undefined) details.name = name;
    if (group !== undefined) details.group = group;
    if (kind !== undefined) details.kind = kind;
    if (causes) details.causes = causes;
    if (retryAfterSeconds !== undefined) details.retryAfterSeconds = retryAfterSeconds;
    status.details = details;
  }
  status.code = error.code;
  return status;
}

export const statusBody = (error: KubeError) => goJson(statusObject(error));

// --- constructors with the apiserver's messages ------------------------------------------------------

export const unauthorized = () => new KubeError(401, "Unauthorized", "Unauthorized");

export function notFound(type: ResourceType, name: string): KubeError {
  return new KubeError(404, "NotFound", `${qualifiedResource(type)} "${name}" not found`, {
    name,
    group: type.group,
    kind: type.plural,
  });
}

export function pathNotFound(): KubeError {
  return new KubeError(404, "NotFound", "the server could not find the requested resource", {});
}

export function forbidden(
  type: ResourceType,
  user: string,
  verb: string,
  namespace: string | undefined,
  name?: string,
  subresource?: string,
): KubeError {
  const resource = subresource ? `${type.plural}/${subresource}` : type.plural;
  const subject = name ? `${qualifiedResource(type)} "${name}"` : qualifiedResource(type);
  const scope = namespace ? `in the namespace "${namespace}"` : "at the cluster scope";
  const details: StatusDetails = name ? { name, group: type.group, kind: type.plural } : { group: type.group, kind: type.plural };
  return new KubeError(
    403,
    "Forbidden",
    `${subject} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${type.group}" ${scope}`,
    details,
  );
}

export function conflict(type: ResourceType, name: string): KubeError {
  return new KubeError(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${qualifiedResource(type)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, group: type.group, kind: type.plural },
  );
}

export function alreadyExists(type: ResourceType, name: string): KubeError {
  return new KubeError(409, "AlreadyExists", `${qualifiedResource(type)} "${name}" already exists`, {
    name,
    group: type.group,
    kind: type.plural,
  });
}

/** 422 Invalid: message lists every cause like field.ErrorList.ToAggregate(). */
export function invalid(type: ResourceType, name: string, causes: StatusCause[]): KubeError {
  const parts = causes.map((cause) => `${cause.field}: ${cause.message}`);
  const joined = parts.length === 1 ? parts[0] : `[${parts.join(", ")}]`;
  const groupKind = type.group ? `${type.kind}.${type.group}` : type.kind;
  return new KubeError(422, "Invalid", `${groupKind} "${name}" is invalid: ${joined}`, {
    name,
    group: type.group,
    kind: type.kind,
    causes,
  });
}

export const badRequest = (message: string) => new KubeError(400, "BadRequest", message);

export const methodNotAllowed = () =>
  new KubeError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource", {});

export function unsupportedMediaType(contentType: string, accepted: string[]): KubeError {
  return new KubeError(
    415,
    "UnsupportedMediaType",
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
    {},
  );
}

export const continueTooOld = (freshToken: string) =>
  new KubeError(
    410,
    "Expired",
    "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
    undefined,
    { continue: freshToken },
  );

export const listTooOld = () => new KubeError(410, "Expired", "The resourceVersion for the provided list is too old.");

export function resourceVersionTooLarge(requested: number, current: number): KubeError {
  return new KubeError(504, "Timeout", `Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
    retryAfterSeconds: 1,
  });
}

export const internalError = (message: string) =>
  new KubeError(500, "InternalError", `Internal error occurred: ${message}`, {
    causes: [{ message }],
  });

export const tooManyRequests = (retryAfterSeconds: number) =>
  new KubeError(429, "TooManyRequests", "Too many requests, please try again later.", { retryAfterSeconds });
