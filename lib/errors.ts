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

export class ValidationError extends AppError {
  constructor(message: string) {
    super(message, "invalid_request", 400);
  }
}

/** The first line of any thrown value, for logs and one-line CLI errors. */
export function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "unknown error"
  );
}
