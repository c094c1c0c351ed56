// The campaign routes: operators and admins create and edit (from a Crow's Nest page: Origin and CSRF
// token), every attempt audited, viewers read; forms get redirects, JSON clients JSON.
import { beforeAll, describe, expect, it } from "vitest";
import { csrfToken } from "@/lib/auth/csrf";
import { SESSION_COOKIE, sealSession, type Session } from "@/lib/auth/session";
import { makeCluster } from "@/lib/db/queries/test-factories";
import { resetEnvCache } from "@/lib/env";
import { useTestDatabase } from "@/lib/testing/db";
import { GET as getOne, POST as postOne } from "./[slug]/route";
import { GET as list, POST as create } from "./route";

const db = useTestDatabase();
const SECRET = "campaign-route-test-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";

beforeAll(async () => {
  Object.assign(process.env, {
    AUTH_MODE: "oidc",
    HOSTNAME: "0.0.0.0",
    OIDC_ISSUER: "http://127.0.0.1:1",
    OIDC_CLIENT_ID: "crows-nest",
    SESSION_SECRET: SECRET,
    PUBLIC_URL: ORIGIN,
  });
  resetEnvCache();
  await makeCluster(db.prisma(), { name: "dev-1", env: "dev", eksVersion: "1.34", kubernetesVersion: "v1.34.4-eks-c8e2a41" });
});

const session = (role: Session["role"]): Session => ({
  sid: `sid-${role}-1`,
  sub: `http://idp#${role}`,
  name: `${role} user`,
  role,
  expiresAt: Math.floor(Date.now() / 1000) + 600,
});

async function send(path: string, s: Session | null, body: Record<string, string>, form = true) {
  const headers: Record<string, string> = {
    "content-type": form ? "application/x-www-form-urlencoded" : "application/json",
    origin: ORIGIN,
    host: "localhost:3000",
  };
  if (s) headers.cookie = `${SESSION_COOKIE}=${await sealSession(s, SECRET)}`;
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers,
    body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
  });
}
const fields = (s: Session, extra: Record<string, string> = {}) => ({
  csrfToken: csrfToken(s.sid, SECRET),
  name: "All on 1.35",
  targetVersion: "1.35",
  deadline: "2027-03-01",
  waveOrder: "dev, staging, prod",
  ...extra,
});
const params = (slug: string) => ({ params: Promise.resolve({ slug }) });

describe("campaign routes", () => {
  it("a viewer may read but not create; the refusal is audited", async () => {
    const viewer = session("viewer");
    const res = await create(await send("/api/campaigns", viewer, fields(viewer)));
    expect(res.status).toBe(403);
    expect(await db.prisma().upgradeCampaign.count()).toBe(0);
    expect(await db.prisma().auditEntry.findMany()).toEqual([
      expect.objectContaining({ actor: "http://idp#viewer", action: "campaign.create", result: "denied" }),
    ]);
    expect((await create(await send("/api/campaigns", null, fields(viewer)))).status).toBe(401);
  });

  it("an operator creates one from the form and lands on its page; bad fields come back to the form", async () => {
    const op = session("operator");
    const bad = await create(await send("/api/campaigns", op, fields(op, { targetVersion: "latest" })));
    expect(bad.status).toBe(303);
    expect(bad.headers.get("location")).toMatch(/\/upgrades\/campaigns\?error=targetVersion/);
    expect((await create(await send("/api/campaigns", op, fields(op, { csrfToken: "forged" })))).status).toBe(403);
    const res = await create(await send("/api/campaigns", op, fields(op)));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/upgrades/campaigns/all-on-1-35");
    const view = await (
      await getOne(
        new Request(`${ORIGIN}/api/campaigns/all-on-1-35`, { headers: { cookie: `${SESSION_COOKIE}=${await sealSession(op, SECRET)}` } }),
        params("all-on-1-35"),
      )
    ).json();
    expect(view).toMatchObject({ name: "All on 1.35", targetVersion: "1.35", total: 1, createdBy: "http://idp#operator" });
    expect(view.progress.waves[0]).toMatchObject({ value: "dev" });
  });

  it("JSON clients get JSON; edits and archiving are audited", async () => {
    const admin = session("admin");
    const created = await create(await send("/api/campaigns", admin, fields(admin, { name: "Second" }), false));
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ slug: "second", url: "/upgrades/campaigns/second" });
    const edit = await postOne(
      await send("/api/campaigns/second", admin, fields(admin, { name: "Second", targetVersion: "1.34" }), false),
      params("second"),
    );
    expect(await edit.json()).toEqual({ slug: "second", url: "/upgrades/campaigns/second" });
    const archived = await postOne(
      await send("/api/campaigns/second", admin, { csrfToken: csrfToken(admin.sid, SECRET), _action: "archive" }, false),
      params("second"),
    );
    expect(await archived.json()).toEqual({ slug: "second", archived: true });
    const missing = await postOne(await send("/api/campaigns/nope", admin, fields(admin), false), params("nope"));
    expect(missing.status).toBe(404);
    const listed = await (
      await list(new Request(`${ORIGIN}/api/campaigns`, { headers: { cookie: `${SESSION_COOKIE}=${await sealSession(admin, SECRET)}` } }))
    ).json();
    expect(listed.campaigns.map((c: { slug: string }) => c.slug)).toEqual(["all-on-1-35"]);
    const actions = (await db.prisma().auditEntry.findMany({ where: { actor: "http://idp#admin" }, orderBy: { id: "asc" } })).map(
      (a) => `${a.action}:${a.result}`,
    );
    expect(actions).toEqual(["campaign.create:ok", "campaign.update:ok", "campaign.archive:ok"]);
  });
});
