"use client";

import { Fragment, type ReactNode } from "react";
import { LoadMore } from "@/components/ui/cursor-list";
import { DataTable } from "@/components/ui/data-table";
import { DataState } from "@/components/ui/data-state";

/** One column of a list table: its heading, and what each row shows under it. */
export type Column<T> = {
  /** The heading's text, and each cell's data-label (the caption a cell gets when rows become cards on a narrow screen). */
  header: string;
  /** What the heading shows instead of its bare text (a muted "Actions"). */
  heading?: ReactNode;
  /** Numbers: heading and cells aligned right. */
  num?: boolean;
  /** More classes for each cell ("mono", "nowrap"). */
  className?: string;
  /** A data-testid on each cell. */
  testId?: string;
  cell: (row: T, index: number) => ReactNode;
};

export type ListTableProps<T extends object> = {
  rows: readonly T[];
  columns: readonly (Column<T> | false)[];
  /** The table's name for screen readers (its scrolling region's): what it lists ("Transactions"). */
  label: string;
  /** Read by screen readers only. */
  caption?: string;
  /** The row's React key; its `id` when left out. */
  rowKey?: (row: T) => string;
  /** An element id on each row, for links to it (`/virtual-accounts#va_…`). */
  rowId?: (row: T) => string;
  /** A data-testid on each row. */
  rowTestId?: string;
  /** A <tfoot> (totals). */
  footer?: ReactNode;
  /** A row's expanded details, in a full-width row under it; null while it is folded. */
  detail?: (row: T) => ReactNode;
};

/** The dashboard's list table: a header row, then a row per item, shown as cards on a narrow screen. */
export function ListTable<T extends object>({
  rows,
  columns,
  label,
  caption,
  rowKey,
  rowId,
  rowTestId,
  footer,
  detail,
}: ListTableProps<T>) {
  const shown = columns.filter((column) => column !== false);
  const keyOf = (row: T, index: number) => rowKey?.(row) ?? ("id" in row ? String(row.id) : String(index));
  return (
    <DataTable
      label={label}
      caption={caption}
      captionClassName="visually-hidden"
      columns={shown.map((column) => ({
        heading: column.heading ?? column.header,
        className: column.num ? "num" : undefined,
      }))}
      footer={footer}
    >
      {rows.map((row, index) => {
        const more = detail?.(row);
        return (
          <Fragment key={keyOf(row, index)}>
            <tr id={rowId?.(row)} data-testid={rowTestId} className={more ? "expanded" : undefined}>
              {shown.map((column) => (
                <td
                  key={column.header}
                  data-label={column.header}
                  className={[column.num && "num", column.className].filter(Boolean).join(" ") || undefined}
                  data-testid={column.testId}
                >
                  {column.cell(row, index)}
                </td>
              ))}
            </tr>
            {more && (
              <tr className="row-detail">
                <td colSpan={shown.length}>{more}</td>
              </tr>
            )}
          </Fragment>
        );
      })}
    </DataTable>
  );
}

/** What useCursorList gives, as far as a list table needs it. */
type CursorList<T> = {
  items: readonly T[];
  query: Parameters<typeof LoadMore>[0]["query"];
  state: { isPending: boolean; error: unknown; refetch: () => unknown };
};

/**
 * A cursor-paginated list (useCursorList) as a table: loading, error and empty states, the rows
 * read so far, and "Load more" under them while there is more.
 */
export function CursorListTable<T extends object>({
  list,
  empty,
  ...table
}: { list: CursorList<T>; empty: ReactNode } & Omit<ListTableProps<T>, "rows">) {
  return (
    <DataState query={list.state} isEmpty={list.items.length === 0} empty={empty}>
      <ListTable rows={list.items} {...table} />
      <LoadMore query={list.query} />
    </DataState>
  );
}

/** A muted "Actions" heading, for the column of a row's buttons. */
export const actionsHeading = <span className="muted">Actions</span>;
