// Sessions live in an encrypted cookie (JWE, dir + A256GCM): nothing to store server-side, and the
// browser can read nothing in it. Keys are derived per purpose from SESSION_SECRET.
import { createHash, randomBytes } from "node:crypto";
import { EncryptJWT, jwtDecrypt } from "jose";
import { z } from "zod";
import { ROLES, type Role } from "./roles";

export const SESSION_COOKIE = "crows_nest_session";
export const SESSION_TTL_SECONDS = 8 * 60 * 60;

export interface Session {
  /** Random id of this sign-in; binds the CSRF token to the session. */
  sid: string;
  /** Stable subject: `<issuer>#<sub>`, what audit entries name as actor. */
  sub: string;
  name: string;
  email?: string;
  role: Role;
  /** Seconds since the epoch. */
  expiresAt: number;
}

const sessionSchema = z.object({
  sid: z.string().min(8),
  sub: z.string().min(1),
  name: z.string(),
  email: z.string().optional(),
  role: z.enum(ROLES),
  expiresAt: z.number().int(),
});

export type KeyPurpose = "session" | "oidc-transaction" | "csrf";

export function deriveKey(secret: string, purpose: KeyPurpose): Uint8Array {
  return new Uint8Array(createHash("sha256").update(`crows-nest/${purpose}/v1\0`).update(secret).digest());
}

export function newSessionId(): string {
  return randomBytes(18).toString("base64url");
}

/** Encrypts any small JSON payload that expires at `expiresAt` (seconds). */
export async function seal(payload: Record<string, unknown>, secret: string, purpose: KeyPurpose, expiresAt: number): Promise<string> {
  return new EncryptJWT(payload)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .encrypt(deriveKey(secret, purpose));
}

/** The payload, or null when the token is forged, from another purpose, or expired. */
export async function unseal(
  token: string,
  secret: string,
  purpose: KeyPurpose,
  now = new Date(),
): Promise<Record<string, unknown> | null> {
  try {
    const { payload } = await jwtDecrypt(token, deriveKey(secret, purpose), { currentDate: now });
    return payload as Record<string, unknown>;
  } catch {
    return null;
  }
}

export function sealSession(session: Session, secret: string): Promise<string> {
  return seal({ ...session }, secret, "session", session.expiresAt);
}

export async function openSession(token: string | undefined, secret: string, now = new Date()): Promise<Session | null> {
  if (!token) return null;
  const payload = await unseal(token, secret, "session", now);
  const parsed = sessionSchema.safeParse(payload);
  return parsed.success ? parsed.data : null;
}
