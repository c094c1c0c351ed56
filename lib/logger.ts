// One structured logger. Child loggers per component and cluster; never a secret in a field.
import pino from "pino";
import { env } from "./env";

const REDACT = [
  "token",
  "*.token",
  "password",
  "*.password",
  "secret",
  "*.secret",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "kubeconfig",
  "*.kubeconfig",
  "credentials",
  "*.credentials",
];

function level(): string {
  try {
    return env().LOG_LEVEL;
  } catch {
    return "info";
  }
}

export const logger = pino({
  level: level(),
  base: { app: "crows-nest" },
  redact: { paths: REDACT, censor: "[redacted]" },
  timestamp: pino.stdTimeFunctions.isoTime,
});

export type Logger = typeof logger;
