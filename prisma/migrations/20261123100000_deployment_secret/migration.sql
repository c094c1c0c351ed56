-- Keys generated once per deployment and shared by every web replica (today: the CSRF key when
-- SESSION_SECRET is not set, i.e. without sign-in). A per-process key would differ between replicas,
-- and between the copies of a module in the Next.js bundle.
CREATE TABLE "deployment_secret" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deployment_secret_pkey" PRIMARY KEY ("name")
);
