import Link from "next/link";
import { buildOpenApi } from "@/lib/openapi";
import { isOpenApiDocument, operationsByTag, type OpenApiDocument } from "@/lib/openapi-reference/model";
import { OperationView } from "./operation-view";
import { RichText } from "./rich-text";
import styles from "./docs.module.css";

export const metadata = { title: "API reference" };

let cached: OpenApiDocument | undefined;

/** The service's own OpenAPI document, checked to be one the page can read. */
function referenceDocument(): OpenApiDocument {
  const document = buildOpenApi();
  if (!isOpenApiDocument(document)) throw new Error("The OpenAPI document lacks what the reference page reads");
  return document;
}

const anchorOf = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

/**
 * The human-readable API reference: the same OpenAPI document /v1/openapi.json serves, rendered here
 * on the server as plain HTML. Nothing is loaded from another host and no script is needed, so it
 * passes the pages' strict CSP and works for anyone, signed in or not (the document is public).
 */
export default function ApiReferencePage() {
  const document = (cached ??= referenceDocument());
  const groups = operationsByTag(document);
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div>
          <h1>{document.info.title}</h1>
          <p className={styles.version}>Version {document.info.version}</p>
        </div>
        <nav aria-label="Reference links" className={styles.headerLinks}>
          <Link href="/">Dashboard</Link>
          <a href="/v1/openapi.json" download="openapi.json">
            OpenAPI document (JSON)
          </a>
        </nav>
      </header>
      <div className={styles.layout}>
        <nav aria-label="Operations" className={styles.toc}>
          <details open>
            <summary>Contents</summary>
            <ul>
              {groups.map(({ tag, operations }) => (
                <li key={tag}>
                  <a href={`#${anchorOf(tag)}`}>{tag}</a> <span className={styles.count}>{operations.length}</span>
                </li>
              ))}
            </ul>
          </details>
        </nav>
        <main id="main" className={styles.content}>
          <section aria-labelledby="introduction">
            <h2 id="introduction">Introduction</h2>
            <RichText text={document.info.description} className={styles.description} />
          </section>
          {groups.map(({ tag, operations }) => (
            <section key={tag} id={anchorOf(tag)} aria-labelledby={`${anchorOf(tag)}-title`}>
              <h2 id={`${anchorOf(tag)}-title`}>{tag}</h2>
              {operations.map((operation) => (
                <OperationView
                  key={`${operation.method} ${operation.path}`}
                  document={document}
                  operation={operation}
                />
              ))}
            </section>
          ))}
        </main>
      </div>
    </div>
  );
}
