// CSV (RFC 4180) for the add-on matrix export: one row per add-on × cluster pair would lose the
// matrix shape, so the file is the matrix itself, one cell = "summary (standing)".
import { cellSummary, type MatrixRow } from "./addon-matrix";
import { STANDING_LABEL } from "./standing";

export function csvField(value: string | number | null | undefined): string {
  const text = value == null ? "" : String(value);
  // A leading = + - @ would be run as a formula by spreadsheets.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map((r) => r.map(csvField).join(",")).join("\r\n") + "\r\n";
}

export function matrixCsv(rows: readonly MatrixRow[], clusters: readonly string[]): string {
  const header = ["add-on", "kind", "repository", "latest", "latest source", "skew", ...clusters];
  const body = rows.map((r) => [
    r.label,
    r.kind,
    r.sources.map((s) => s.url).join(" ") || (r.repository ?? ""),
    r.latest ?? (r.upstreamError ? `unavailable: ${r.upstreamError}` : ""),
    r.latestBasis ?? "",
    r.skew ? "yes" : "no",
    ...clusters.map((c) => {
      const cell = r.cells[c];
      if (!cell || cell.standing === "missing") return "";
      return `${cellSummary(cell) || "?"} (${STANDING_LABEL[cell.standing]})`;
    }),
  ]);
  return toCsv([header, ...body]);
}
