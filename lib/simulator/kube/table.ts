// Server-side printing (meta.k8s.io/v1 Table), which is what `kubectl get` asks for first.
import { evaluateColumnPath, type PrinterColumn, type ResourceType } from "./registry";
import type { ObjectVersion } from "./store";

const NAME_DESCRIPTION =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names";

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const years = Math.floor(hours / 24 / 365);
    const days = Math.floor(hours / 24) % 365;
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

export type IncludeObject = "None" | "Metadata" | "Object";

export function wantsTable(accept: string | undefined): boolean {
  return Boolean(accept && /as=Table/.test(accept) && /g=meta\.k8s\.io/.test(accept));
}

function cell(object: Record<string, unknown>, column: PrinterColumn, now: number): unknown {
  const { jsonPath, type } = column;
  const value = column.compute ? column.compute(object) : evaluateColumnPath(object, jsonPath);
  if (value === undefined || value === null) return null;
  if (type === "date" && typeof value === "string") {
    const time = Date.parse(value);
    return Number.isNaN(time) ? value : humanDuration(now - time);
  }
  return typeof value === "object" ? JSON.stringify(value) : value;
}

/** The Table as a JSON string; rows reuse each object's pre-serialised JSON when the client wants it. */
export function tableJson(
  type: ResourceType,
  versions: ObjectVersion[],
  listMeta: Record<string, unknown>,
  includeObject: IncludeObject,
  now: number,
): string {
  const columnDefinitions = [
    { name: "Name", type: "string", format: "name", description: NAME_DESCRIPTION, priority: 0 },
    ...type.columns.map((column) => ({
      name: column.name,
      type: column.type,
      format: "",
      description: column.description ?? `Custom resource definition column (in JSONPath format): ${column.jsonPath}`,
      priority: column.priority ?? 0,
    })),
  ];
  const rows = versions.map((version) => {
    const object = version.object;
    const cells = JSON.stringify([version.name, ...type.columns.map((column) => cell(object, column, now))]);
    if (includeObject === "None") return `{"cells":${cells}}`;
    const rowObject =
      includeObject === "Object"
        ? version.json
        : JSON.stringify({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: object.metadata });
    return `{"cells":${cells},"object":${rowObject}}`;
  });
  const head = JSON.stringify({ kind: "Table", apiVersion: "meta.k8s.io/v1", metadata: listMeta, columnDefinitions });
  return `${head.slice(0, -1)},"rows":[${rows.join(",")}]}`;
}
