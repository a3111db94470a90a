import type { ReactNode } from "react";

/** A column heading: its content, or its content with a class for the <th> ("num" aligns right). */
export type Heading = ReactNode | { heading: ReactNode; className?: string };

const isClassed = (heading: Heading): heading is { heading: ReactNode; className?: string } =>
  typeof heading === "object" && heading !== null && "heading" in heading;

/**
 * The dashboard's table markup, the one every list uses (ListTable builds on it): a wrapper that
 * scrolls sideways on its own (a named region a keyboard can focus and scroll, so a wide table never
 * widens the page; the first column stays in view), cards on a narrow screen (each cell named by its
 * `data-label`), the header from `columns` (false leaves a column out, e.g. Actions for a reader), the
 * rows as children.
 */
export function DataTable({
  label,
  className,
  caption,
  captionClassName = "muted",
  columns,
  footer,
  children,
}: {
  /** The scrolling region's name for screen readers: what the table lists ("Transactions"). */
  label: string;
  className?: string;
  caption?: ReactNode;
  /** "muted" shows the caption; "visually-hidden" leaves it to screen readers. */
  captionClassName?: string;
  columns: readonly (Heading | false)[];
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table className={className ? `cards ${className}` : "cards"}>
        {caption && <caption className={captionClassName}>{caption}</caption>}
        <thead>
          <tr>
            {columns.map(
              (column, index) =>
                column !== false && (
                  <th key={index} scope="col" className={isClassed(column) ? column.className : undefined}>
                    {isClassed(column) ? column.heading : column}
                  </th>
                ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
        {footer}
      </table>
    </div>
  );
}
