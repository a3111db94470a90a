import { Fragment, type ReactNode } from "react";

/** One line of a details list; false leaves it out. */
export type Detail = { term: string; value: ReactNode; testId?: string } | false;

/** An object's properties as a definition list (term, then value), the way every detail page shows them. */
export function DetailsList({ items }: { items: readonly Detail[] }) {
  return (
    <dl className="props">
      {items.map(
        (item) =>
          item && (
            <Fragment key={item.term}>
              <dt>{item.term}</dt>
              <dd data-testid={item.testId}>{item.value}</dd>
            </Fragment>
          ),
      )}
    </dl>
  );
}

/**
 * A page section under its own heading, named by it for screen readers. A plain card keeps its
 * heading's bottom margin; in a stack, the stack spaces the heading.
 */
export function Section({
  id,
  title,
  className = "card stack",
  children,
}: {
  id: string;
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section className={className} aria-labelledby={id}>
      <h2 id={id} style={className === "card" ? { marginTop: 0 } : { margin: 0 }}>
        {title}
      </h2>
      {children}
    </section>
  );
}
