// What a PostgreSQL database must contain to match prisma/schema.prisma, derived from Prisma's own
// schema parser (DMMF) with Prisma's default PostgreSQL mapping and constraint naming.
import { readFileSync } from "node:fs";
import path from "node:path";
import { get_dmmf } from "@prisma/prisma-schema-wasm";

export interface ExpectedColumn {
  name: string;
  /** PostgreSQL type as information_schema / format_type shows it. */
  type: string;
  nullable: boolean;
  /** "autoincrement" | "now" | a literal default | null */
  default: string | null;
}

export interface ExpectedIndex {
  name: string;
  columns: string[];
  unique: boolean;
  primary: boolean;
}

export interface ExpectedForeignKey {
  name: string;
  columns: string[];
  references: { table: string; columns: string[] };
  onDelete: string;
  onUpdate: string;
}

export interface ExpectedTable {
  model: string;
  name: string;
  columns: ExpectedColumn[];
  indexes: ExpectedIndex[];
  foreignKeys: ExpectedForeignKey[];
}

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "object" | "enum";
  type: string;
  isList: boolean;
  isRequired: boolean;
  isId: boolean;
  isUnique: boolean;
  isUpdatedAt: boolean;
  nativeType?: [string, string[]] | null;
  default?: { name: string; args: unknown[] } | string | number | boolean | unknown[];
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}

interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}

interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  dbName?: string | null;
  fields: { name: string }[];
}

const SCALAR_TYPES: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Boolean: "boolean",
  DateTime: "timestamp(3) without time zone",
  Json: "jsonb",
  Float: "double precision",
  Decimal: "numeric(65,30)",
  Bytes: "bytea",
};

function columnDefault(field: DmmfField): string | null {
  const d = field.default;
  if (d === undefined) return null;
  if (typeof d === "object" && d !== null && !Array.isArray(d) && "name" in d) {
    if (d.name === "autoincrement") return "autoincrement";
    if (d.name === "now") return "now";
    return d.name;
  }
  return JSON.stringify(d);
}

export function expectedTables(schemaPath = path.resolve(process.cwd(), "prisma/schema.prisma")): ExpectedTable[] {
  const schema = readFileSync(schemaPath, "utf8");
  const dmmf = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: schema }))) as {
    datamodel: { models: DmmfModel[]; indexes: DmmfIndex[] };
  };
  const models = dmmf.datamodel.models;
  const tableOf = (model: string) => {
    const m = models.find((x) => x.name === model);
    if (!m) throw new Error(`unknown model ${model}`);
    return m.dbName ?? m.name;
  };
  const columnOf = (model: DmmfModel, field: string) => {
    const f = model.fields.find((x) => x.name === field);
    return f?.dbName ?? field;
  };

  return models.map((model) => {
    const table = tableOf(model.name);
    const columns: ExpectedColumn[] = model.fields
      .filter((f) => f.kind !== "object")
      .map((f) => {
        const base = SCALAR_TYPES[f.type];
        if (!base) throw new Error(`no PostgreSQL mapping for ${model.name}.${f.name}: ${f.type}`);
        return {
          name: f.dbName ?? f.name,
          type: f.isList ? `${base}[]` : base,
          nullable: !f.isRequired,
          default: columnDefault(f),
        };
      });
    const indexes: ExpectedIndex[] = dmmf.datamodel.indexes
      .filter((i) => i.model === model.name && i.type !== "fulltext")
      .map((i) => {
        const cols = i.fields.map((f) => columnOf(model, f.name));
        const suffix = i.type === "id" ? "pkey" : i.type === "unique" ? "key" : "idx";
        const name = i.dbName ?? (i.type === "id" ? `${table}_pkey` : `${table}_${cols.join("_")}_${suffix}`);
        return { name, columns: cols, unique: i.type !== "normal", primary: i.type === "id" };
      });
    const foreignKeys: ExpectedForeignKey[] = model.fields
      .filter((f) => f.kind === "object" && f.relationFromFields && f.relationFromFields.length > 0)
      .map((f) => {
        const cols = f.relationFromFields!.map((c) => columnOf(model, c));
        const target = models.find((m) => m.name === f.type)!;
        return {
          name: `${table}_${cols.join("_")}_fkey`,
          columns: cols,
          references: { table: tableOf(f.type), columns: f.relationToFields!.map((c) => columnOf(target, c)) },
          onDelete: (f.relationOnDelete ?? (f.isRequired ? "Restrict" : "SetNull"))
            .toUpperCase()
            .replace("SETNULL", "SET NULL")
            .replace("NOACTION", "NO ACTION"),
          onUpdate: (f.relationOnUpdate ?? "Cascade").toUpperCase().replace("SETNULL", "SET NULL").replace("NOACTION", "NO ACTION"),
        };
      });
    return { model: model.name, name: table, columns, indexes, foreignKeys };
  });
}
