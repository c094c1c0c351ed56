// `npm run db:migrate`: start (if embedded) and migrate the database, then exit.
import { ensureDatabase } from "../lib/db/database";
import { oneLine } from "../lib/errors";

try {
  const db = await ensureDatabase();
  console.log(
    `database ready (${db.embedded ? "embedded" : "DATABASE_URL"}), migration ${db.migration.version ?? "none"}, applied now: ${db.migration.applied.length}`,
  );
  await db.stop();
} catch (err) {
  console.error(`crows-nest: ${oneLine(err)}`);
  process.exit(1);
}
