// The SQL migrations and prisma/schema.prisma must describe the same database: every table, column,
// type, nullability, default, primary key, unique, index and foreign key.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing/db";
import { expectedTables } from "../testing/schema-model";

const db = useTestDatabase();

interface ActualColumn {
  table: string;
  name: string;
  type: string;
  nullable: boolean;
  default: string | null;
}

function normaliseDefault(raw: string | null): string | null {
  if (raw === null) return null;
  if (raw.startsWith("nextval(")) return "autoincrement";
  if (raw === "CURRENT_TIMESTAMP") return "now";
  const literal = raw.match(/^'(.*)'::[a-z ]+$/s);
  if (literal) return JSON.stringify(literal[1]);
  if (raw === "true" || raw === "false" || /^-?\d+(\.\d+)?$/.test(raw)) return raw;
  return raw;
}

async function actualSchema() {
  const pool = db.pool();
  const columns = await pool.query<ActualColumn>(`
    SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
           NOT a.attnotnull AS nullable, pg_get_expr(d.adbin, d.adrelid) AS default
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
      AND c.relname <> 'crows_nest_migrations'`);
  const indexes = await pool.query<{ table: string; name: string; unique: boolean; primary: boolean; columns: string[] }>(`
    SELECT t.relname AS table, i.relname AS name, x.indisunique AS unique, x.indisprimary AS primary,
           array_agg(a.attname::text ORDER BY k.ord) AS columns
    FROM pg_index x
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
    WHERE n.nspname = 'public' AND t.relname <> 'crows_nest_migrations'
    GROUP BY t.relname, i.relname, x.indisunique, x.indisprimary`);
  const fks = await pool.query<{ table: string; name: string; definition: string }>(`
    SELECT cl.relname AS table, co.conname AS name, pg_get_constraintdef(co.oid) AS definition
    FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid
    JOIN pg_namespace n ON n.oid = cl.relnamespace
    WHERE co.contype = 'f' AND n.nspname = 'public'`);
  return { columns: columns.rows, indexes: indexes.rows, fks: fks.rows };
}

/** Indexes Prisma cannot declare (expression or partial), created by SQL migrations only. */
const SQL_ONLY_INDEXES: Record<string, string[]> = { flux_object: ["flux_object_stale_after_idx"], node: ["node_not_ready_idx"] };

describe("migrations match schema.prisma", () => {
  const expected = expectedTables();

  it("has exactly the tables of the models", async () => {
    const { columns } = await actualSchema();
    const actualTables = [...new Set(columns.map((c) => c.table))].sort();
    expect(actualTables).toEqual(expected.map((t) => t.name).sort());
  });

  it("has every column with its type, nullability and default", async () => {
    const { columns } = await actualSchema();
    for (const table of expected) {
      const actual = columns
        .filter((c) => c.table === table.name)
        .map((c) => ({ name: c.name, type: c.type, nullable: c.nullable, default: normaliseDefault(c.default) }))
        .sort((a, b) => a.name.localeCompare(b.name));
      const want = [...table.columns].sort((a, b) => a.name.localeCompare(b.name));
      expect(actual, `columns of ${table.name}`).toEqual(want);
    }
  });

  it("has every primary key, unique constraint and index, and no others", async () => {
    const { indexes } = await actualSchema();
    for (const table of expected) {
      const sqlOnly = SQL_ONLY_INDEXES[table.name] ?? [];
      const named = await db
        .pool()
        .query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1", [table.name]);
      for (const name of sqlOnly)
        expect(
          named.rows.map((r) => r.indexname),
          `${name} exists`,
        ).toContain(name);
      const actual = indexes
        .filter((i) => i.table === table.name && !sqlOnly.includes(i.name))
        .map((i) => ({ name: i.name, columns: i.columns, unique: i.unique, primary: i.primary }))
        .sort((a, b) => a.name.localeCompare(b.name));
      const want = [...table.indexes].sort((a, b) => a.name.localeCompare(b.name));
      expect(actual, `indexes of ${table.name}`).toEqual(want);
    }
  });

  it("has every foreign key with its referential actions", async () => {
    const { fks } = await actualSchema();
    for (const table of expected) {
      const actual = fks
        .filter((f) => f.table === table.name)
        .map((f) => f.name)
        .sort();
      expect(actual, `foreign keys of ${table.name}`).toEqual(table.foreignKeys.map((f) => f.name).sort());
      for (const fk of table.foreignKeys) {
        const def = fks.find((f) => f.name === fk.name)!.definition;
        const cols = fk.columns.map((c) => `"${c}"`).join(", ");
        const refCols = fk.references.columns.map((c) => (c === c.toLowerCase() ? c : `"${c}"`)).join(", ");
        expect(def.replace(/"(\w+)"/g, (m, g: string) => (g === g.toLowerCase() ? g : m))).toBe(
          `FOREIGN KEY (${cols.replace(/"(\w+)"/g, (m, g: string) => (g === g.toLowerCase() ? g : m))}) REFERENCES ${fk.references.table}(${refCols})` +
            `${fk.onUpdate === "NO ACTION" ? "" : ` ON UPDATE ${fk.onUpdate}`}${fk.onDelete === "NO ACTION" ? "" : ` ON DELETE ${fk.onDelete}`}`,
        );
      }
    }
  });
});
