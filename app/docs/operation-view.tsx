import type { OpenApiDocument, Parameter, ReferenceOperation } from "@/lib/openapi-reference/model";
import { typeLabel } from "@/lib/openapi-reference/model";
import { InlineCode, RichText } from "./rich-text";
import { SchemaView } from "./schema-view";
import styles from "./docs.module.css";

/** One operation: who may call it, its parameters, its body, what it answers and how it fails. */
export function OperationView({ document, operation }: { document: OpenApiDocument; operation: ReferenceOperation }) {
  const [bodyType, bodyContent] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  const body = bodyContent?.schema;
  return (
    <section id={operation.operationId} className={styles.operation} aria-labelledby={`${operation.operationId}-title`}>
      <h3 id={`${operation.operationId}-title`} className={styles.operationTitle}>
        <span className={`${styles.method} ${styles[operation.method.toLowerCase()] ?? ""}`}>{operation.method}</span>
        <code className={styles.path}>{operation.path}</code>
      </h3>
      <p className={styles.summary}>
        {operation.summary}
        {operation["x-extension"] && <span className={styles.tag}>extension</span>}
      </p>
      {operation.description && <RichText text={operation.description} className={styles.description} />}
      {operation.parameters && operation.parameters.length > 0 && (
        <ParameterTable document={document} parameters={operation.parameters} />
      )}
      {body && (
        <>
          <h4>Request body</h4>
          {bodyType !== "application/json" && (
            <p className={styles.schemaLine}>
              As <code>{bodyType}</code>.
            </p>
          )}
          <SchemaView document={document} schema={body} input />
        </>
      )}
      <Responses document={document} operation={operation} />
    </section>
  );
}

function ParameterTable({ document, parameters }: { document: OpenApiDocument; parameters: Parameter[] }) {
  return (
    <>
      <h4>Parameters</h4>
      <div className={styles.tableScroll} role="region" aria-label="Parameters" tabIndex={0}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">In</th>
              <th scope="col">Type</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {parameters.map((parameter) => (
              <tr key={`${parameter.in}:${parameter.name}`}>
                <td>
                  <code>{parameter.name}</code>
                  {parameter.required && <span className={styles.required}>required</span>}
                </td>
                <td>{parameter.in}</td>
                <td>
                  <code>{typeLabel(document, parameter.schema)}</code>
                </td>
                <td>{parameter.description ? <InlineCode text={parameter.description} /> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Responses({ document, operation }: { document: OpenApiDocument; operation: ReferenceOperation }) {
  const entries = Object.entries(operation.responses);
  const success = entries.filter(([status]) => status.startsWith("2"));
  const errors = entries.filter(([status]) => !status.startsWith("2"));
  return (
    <>
      {success.map(([status, response]) => {
        const schema = response.content?.["application/json"]?.schema;
        const fileTypes = Object.keys(response.content ?? {}).filter((type) => type !== "application/json");
        return (
          <div key={status}>
            <h4>
              Response <span className={styles.status}>{status}</span>
            </h4>
            {schema ? (
              <SchemaView document={document} schema={schema} />
            ) : fileTypes.length ? (
              <p className={styles.schemaLine}>
                The file&apos;s bytes, as{" "}
                {fileTypes.map((type, index) => (
                  <span key={type}>
                    {index > 0 && ", "}
                    <code>{type}</code>
                  </span>
                ))}
                .
              </p>
            ) : (
              <p className={styles.schemaLine}>No body.</p>
            )}
          </div>
        );
      })}
      <h4>Errors</h4>
      <ul className={styles.errors}>
        {errors.map(([status, response]) => (
          <li key={status}>
            <span className={styles.status}>{status}</span> <InlineCode text={response.description} />
          </li>
        ))}
      </ul>
    </>
  );
}
