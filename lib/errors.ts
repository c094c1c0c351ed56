// Typed errors with messages fit for one line on a terminal or in a JSON envelope.

export class AppError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status = 500,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class DatabaseStartError extends AppError {
  constructor(message: string) {
    super(message, "database_start", 503);
  }
}

export class MigrationError extends AppError {
  constructor(message: string) {
    super(message, "migration", 500);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(message, "not_found", 404);
  }
}

/**
 * The first non-empty line of any thrown value (an Error's message, an SDK error object's message, or the
 * value as text), for logs and one-line errors; `fallback` when there is none.
 */
export function oneLine(err: unknown, fallback = "unknown error"): string {
  const text =
    err instanceof Error
      ? err.message
      : typeof err === "object" && err && "message" in err && typeof err.message === "string"
        ? err.message
        : String(err);
  return (
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? fallback
  );
}
