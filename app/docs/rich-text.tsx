import { Fragment } from "react";

/**
 * The OpenAPI descriptions' own light markup: paragraphs split by blank lines, `code` in backticks.
 * Text only: nothing in a description becomes HTML.
 */
export function RichText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className}>
      {text.split(/\n\n+/).map((paragraph, index) => (
        <p key={index}>
          <InlineCode text={paragraph} />
        </p>
      ))}
    </div>
  );
}

export function InlineCode({ text }: { text: string }) {
  return (
    <>
      {text
        .split("`")
        .map((part, index) =>
          index % 2 === 1 ? <code key={index}>{part}</code> : <Fragment key={index}>{part}</Fragment>,
        )}
    </>
  );
}
