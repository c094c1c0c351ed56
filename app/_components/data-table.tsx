// A table from column definitions: caption, header row, one row per item, a row header column, an empty
// text, and optional paging through links (the page number lives in the query string, so a page can be
// shared and needs no client code). Pages build their tables from this instead of writing <table> by hand.
import Link from "next/link";
import type { ReactNode } from "react";
import { link, tableBox, td, th } from "./triage-section";

export interface Column<Row> {
  header: string;
  cell: (row: Row, index: number) => ReactNode;
  /** The cell that names the row: rendered as <th scope="row">. */
  rowHeader?: boolean;
  /** Classes added to the cell (the header cell keeps the table's own). */
  className?: string;
}

interface Paging {
  /** 1-based page to show; out-of-range values are clamped. */
  page: number;
  pageSize: number;
  /** The URL of another page of this table. */
  href: (page: number) => string;
  /** What the rows are, for the "Showing 1–100 of 1,300 objects" line. */
  noun: string;
}

interface DataTableProps<Row> {
  caption: string;
  /** Visible caption above the header row; otherwise it is for screen readers only. */
  captionVisible?: boolean;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  /** data-* attributes of a row, for tests and for styles keyed on a row's state. */
  rowAttributes?: (row: Row) => Record<`data-${string}`, string | undefined>;
  /** Shown instead of the table when there are no rows; without it an empty table renders nothing. */
  emptyText?: ReactNode;
  paging?: Paging;
  /** Extra classes on <table>, e.g. a minimum width that makes the box scroll on a phone. */
  tableClassName?: string;
  className?: string;
  testId?: string;
}

const count = (n: number) => n.toLocaleString("en-US");

/** The slice of `rows` a page shows, and which page that is after clamping. */
function pageOf<Row>(
  rows: readonly Row[],
  paging: Pick<Paging, "page" | "pageSize">,
): { rows: readonly Row[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / paging.pageSize));
  const page = Math.min(pages, Math.max(1, Math.floor(paging.page) || 1));
  return { rows: rows.slice((page - 1) * paging.pageSize, page * paging.pageSize), page, pages };
}

function Pager({ paging, page, pages, total, shown }: { paging: Paging; page: number; pages: number; total: number; shown: number }) {
  const first = (page - 1) * paging.pageSize + 1;
  return (
    <nav
      aria-label={`Pages of ${paging.noun}`}
      className="flex flex-wrap items-center gap-x-4 gap-y-1 border-t border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800"
    >
      <span>
        Showing {count(first)}–{count(first + shown - 1)} of {count(total)} {paging.noun}
      </span>
      {page > 1 ? (
        <Link href={paging.href(page - 1)} className={link} rel="prev">
          ← previous
        </Link>
      ) : null}
      {page < pages ? (
        <Link href={paging.href(page + 1)} className={link} rel="next">
          next →
        </Link>
      ) : null}
      <span className="text-xs text-zinc-500">
        page {page} of {pages}
      </span>
    </nav>
  );
}

export function DataTable<Row>({
  caption,
  captionVisible = false,
  columns,
  rows,
  rowKey,
  rowAttributes,
  emptyText,
  paging,
  tableClassName = "",
  className = "",
  testId,
}: DataTableProps<Row>) {
  if (rows.length === 0) {
    return emptyText ? <p className={`text-sm text-zinc-600 dark:text-zinc-400 ${className}`}>{emptyText}</p> : null;
  }
  const slice = paging ? pageOf(rows, paging) : { rows, page: 1, pages: 1 };
  const offset = (slice.page - 1) * (paging?.pageSize ?? 0);
  return (
    <div className={`${tableBox} ${className}`} data-testid={testId}>
      <table className={`w-full text-left text-sm ${tableClassName}`}>
        <caption className={captionVisible ? "px-3 pt-2 text-left text-sm font-medium" : "sr-only"}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={th}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {slice.rows.map((row, i) => (
            <tr key={rowKey(row, offset + i)} className="row-divider" {...rowAttributes?.(row)}>
              {columns.map((c) =>
                c.rowHeader ? (
                  <th key={c.header} scope="row" className={c.className ? `${td} ${c.className}` : td}>
                    {c.cell(row, offset + i)}
                  </th>
                ) : (
                  <td key={c.header} className={c.className ? `${td} ${c.className}` : td}>
                    {c.cell(row, offset + i)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {paging && slice.pages > 1 ? (
        <Pager paging={paging} page={slice.page} pages={slice.pages} total={rows.length} shown={slice.rows.length} />
      ) : null}
    </div>
  );
}
