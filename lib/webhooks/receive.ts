// Receives one Flux notification-controller webhook for a cluster: size limit, signature, body schema,
// cluster lookup, then (once per distinct body) an inbox row, a nudge row and a NOTIFY so the collector
// re-polls the object now. Checks run in that order on purpose: a caller without the key learns nothing,
// not even whether a cluster exists.
import { createHash } from "node:crypto";
import { AppError } from "../errors";
import { env } from "../env";
import { NUDGE_CHANNEL } from "../db/channels";
import { getPool } from "../db/client";
import { resolveKind } from "../fleet/kinds";
import { fluxEventSchema, hasUnstorableText, revisionOf } from "./payload";
import { keyForCluster, verifySignature } from "./signature";

export class WebhookError extends AppError {}

export interface ReceiveResult {
  status: 202 | 200;
  body: { accepted: boolean; duplicate: boolean; id: string | null };
}

/** Reads at most `max` bytes of a request body; more is a 413. */
export async function readBodyLimited(request: Request, max: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > max) throw new WebhookError(`body larger than ${max} bytes`, "payload_too_large", 413);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new WebhookError(`body larger than ${max} bytes`, "payload_too_large", 413);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

export async function receiveFluxWebhook(cluster: string, request: Request): Promise<ReceiveResult> {
  const settings = env();
  const body = await readBodyLimited(request, settings.WEBHOOK_MAX_BODY_BYTES);

  const signature = request.headers.get("x-signature");
  const key = keyForCluster(cluster, settings.WEBHOOK_HMAC_SECRETS, settings.WEBHOOK_HMAC_SECRET);
  if (signature || !settings.WEBHOOK_ALLOW_GENERIC) {
    if (!key) throw new WebhookError("no webhook key is configured for this cluster", "unauthorized", 401);
    if (!verifySignature(body, signature, key)) throw new WebhookError("missing or invalid X-Signature", "unauthorized", 401);
  }

  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new WebhookError("body is not valid JSON", "invalid_request", 400);
  }
  if (hasUnstorableText(json)) throw new WebhookError("body holds a NUL character or broken Unicode", "invalid_request", 400);
  const parsed = fluxEventSchema.safeParse(json);
  if (!parsed.success) {
    const message = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    throw new WebhookError(`not a Flux event: ${message}`, "invalid_request", 400);
  }
  const event = parsed.data;
  const kind = resolveKind(event.involvedObject.kind) ?? event.involvedObject.kind;

  const pool = getPool();
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows: clusterRows } = await client.query<{ id: number }>(`SELECT id FROM cluster WHERE name = $1`, [cluster]);
    if (!clusterRows[0]) throw new WebhookError(`unknown cluster ${cluster}`, "not_found", 404);
    const clusterId = clusterRows[0].id;
    // Redeliveries (notification-controller retries up to 4 times) carry the same bytes.
    const dedupeKey = createHash("sha256").update(cluster).update("\n").update(body).digest("hex");
    const { rows: objectRows } = await client.query<{ id: string }>(
      `SELECT id FROM flux_object WHERE "clusterId" = $1 AND kind = $2 AND namespace = $3 AND name = $4`,
      [clusterId, kind, event.involvedObject.namespace, event.involvedObject.name],
    );
    const { rows: inserted } = await client.query<{ id: string }>(
      `INSERT INTO webhook_event ("clusterId", "objectId", "dedupeKey", "involvedKind", "involvedNamespace", "involvedName",
         severity, reason, message, revision, "eventTime", metadata, "reportingController")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT ("dedupeKey") DO NOTHING RETURNING id`,
      [
        clusterId,
        objectRows[0]?.id ?? null,
        dedupeKey,
        kind,
        event.involvedObject.namespace,
        event.involvedObject.name,
        event.severity,
        event.reason,
        event.message,
        revisionOf(event),
        event.timestamp ? new Date(event.timestamp) : null,
        JSON.stringify(event.metadata ?? {}),
        event.reportingController ?? null,
      ],
    );
    if (!inserted[0]) {
      await client.query("ROLLBACK");
      return { status: 200, body: { accepted: true, duplicate: true, id: null } };
    }
    await client.query(`INSERT INTO collector_nudge ("clusterName", kind, namespace, name, reason) VALUES ($1, $2, $3, $4, 'webhook')`, [
      cluster,
      kind,
      event.involvedObject.namespace,
      event.involvedObject.name,
    ]);
    // Delivered on COMMIT: the collector never hears of a nudge that was rolled back.
    await client.query(`SELECT pg_notify($1, $2)`, [NUDGE_CHANNEL, cluster]);
    await client.query("COMMIT");
    return { status: 202, body: { accepted: true, duplicate: false, id: inserted[0].id } };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
