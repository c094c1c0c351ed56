// Prisma's CLI wants a native schema engine it cannot download here. generate/validate/format do not
// need it; pointing it at /dev/null makes anything that does (migrate) fail loudly instead of silently.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/dev/null";

import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
