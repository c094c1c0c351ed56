// A second web server for the sign-in specs: `next start` with AUTH_MODE=oidc against the local OIDC
// provider, sharing the database (and so the collector and simulator) of the global e2e stack. Its output
// is captured so specs can search the log lines.
import { spawn } from "node:child_process";
import { freePort } from "../lib/db/embedded";
import { nextBin, waitForHttp, type Child } from "../scripts/lib/processes";
import { startOidcProvider, TEST_CLIENT, TEST_ROLE_ENV, type TestOidcProvider } from "./oidc-provider";

export const SESSION_SECRET = "e2e-session-secret-0123456789abcdef-0123";

export interface OidcWeb {
  baseUrl: string;
  provider: TestOidcProvider;
  logs: string[];
  stop: () => Promise<void>;
}

export async function startOidcWeb(extraEnv: Record<string, string> = {}): Promise<OidcWeb> {
  const databaseUrl = process.env.E2E_DATABASE_URL;
  if (!databaseUrl) throw new Error("E2E_DATABASE_URL is not set: run through `npm run test:e2e` (e2e/global-setup.ts)");
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider([`${baseUrl}/auth/callback`]);
  const logs: string[] = [];
  const proc = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "info",
      AUTH_MODE: "oidc",
      HOSTNAME: "127.0.0.1",
      PUBLIC_URL: baseUrl,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
      SESSION_SECRET,
      METRICS_PUBLIC: "false",
      WEBHOOK_HMAC_SECRET: process.env.E2E_WEBHOOK_SECRET ?? "",
      ...TEST_ROLE_ENV,
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collect = (chunk: Buffer) =>
    logs.push(
      ...chunk
        .toString()
        .split("\n")
        .filter((l) => l.trim()),
    );
  proc.stdout.on("data", collect);
  proc.stderr.on("data", collect);
  const exited = new Promise<number>((resolve) => proc.on("exit", (code) => resolve(code ?? 1)));
  const child: Child = { name: "web-oidc", process: proc, exited, lastLines: () => logs.slice(-20) };
  try {
    await waitForHttp(`${baseUrl}/api/health`, 90_000, child);
  } catch (err) {
    await provider.stop();
    throw new Error(`${String(err)}\n${logs.slice(-20).join("\n")}`);
  }
  return {
    baseUrl,
    provider,
    logs,
    stop: async () => {
      if (proc.exitCode === null) {
        proc.kill("SIGTERM");
        await exited;
      }
      await provider.stop();
    },
  };
}
