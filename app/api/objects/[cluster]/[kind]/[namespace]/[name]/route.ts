// GET /api/objects/{cluster}/{kind}/{namespace}/{name}: one Flux object, same data as its page.
import { z } from "zod";
import { authorizeRequest } from "@/lib/auth/guard";
import { getObject } from "@/lib/db/queries/objects";
import { NotFoundError } from "@/lib/errors";
import { kindFromSlug } from "@/lib/fleet/kinds";
import { OBJECT_VOLATILE_KEYS, versionedJson } from "@/lib/http/content-version";
import { fromError } from "@/lib/http/response";
import { readRouteParams } from "@/lib/http/route-params";

// Reads the database on every request (and stays testable outside a Next.js request scope).
export const dynamic = "force-dynamic";

const params = z.object({
  cluster: z.string().min(1).max(253),
  kind: z.string().transform((k, ctx) => {
    const kind = kindFromSlug(k);
    if (!kind) {
      ctx.addIssue({
        code: "custom",
        message: `unknown kind "${k}" (use kustomization, helmrelease, gitrepository, ocirepository, helmrepository or helmchart)`,
      });
      return z.NEVER;
    }
    return kind;
  }),
  namespace: z.string().min(1).max(253),
  name: z.string().min(1).max(253),
});

type Params = { cluster: string; kind: string; namespace: string; name: string };

export async function GET(request: Request, ctx: { params: Promise<Params> }) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const ref = params.parse(await readRouteParams(ctx.params));
    const detail = await getObject(ref);
    if (!detail) throw new NotFoundError(`no ${ref.kind} ${ref.namespace}/${ref.name} in cluster ${ref.cluster}`);
    // The ETag lets an open object page ask cheaply whether anything it shows has changed.
    return versionedJson(request, detail, OBJECT_VOLATILE_KEYS);
  } catch (err) {
    return fromError(err);
  }
}
