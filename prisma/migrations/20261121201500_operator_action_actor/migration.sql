-- Who asked for an operator action, as the audit entry written by the collector should name them.
ALTER TABLE "operator_action" ADD COLUMN "actorName" TEXT;
ALTER TABLE "operator_action" ADD COLUMN "role" TEXT NOT NULL DEFAULT 'operator';
