import {
  constraintsOf,
  objectOf,
  resolveRef,
  typeLabel,
  type OpenApiDocument,
  type Schema,
} from "@/lib/openapi-reference/model";
import { InlineCode } from "./rich-text";
import styles from "./docs.module.css";

/** How deep nested objects are spelled out; deeper ones are named by their type only. */
const MAX_DEPTH = 4;

/**
 * A schema as a reader wants it: each property with its type, whether it is required, its limits and
 * its description; nested objects inside, a level deeper. A schema without properties is one line.
 */
export function SchemaView({
  document,
  schema,
  depth = 0,
  input = false,
}: {
  document: OpenApiDocument;
  schema: Schema;
  depth?: number;
  /** A request body: say which fields are required (a response always has all of its fields). */
  input?: boolean;
}) {
  const object = objectOf(document, schema);
  const label = typeLabel(document, schema);
  if (!object?.properties || depth >= MAX_DEPTH)
    return (
      <p className={styles.schemaLine}>
        <code>{label}</code> <Constraints schema={resolveRef(document, schema).schema} />
      </p>
    );
  const required = new Set(object.required ?? []);
  return (
    <div className={styles.schema}>
      {depth === 0 && (
        <p className={styles.schemaLine}>
          <code>{label}</code>
        </p>
      )}
      <ul className={styles.properties}>
        {Object.entries(object.properties).map(([name, property]) => (
          <PropertyItem
            key={name}
            document={document}
            name={name}
            property={property}
            required={input ? required.has(name) : null}
            depth={depth}
          />
        ))}
      </ul>
    </div>
  );
}

function PropertyItem({
  document,
  name,
  property,
  required,
  depth,
}: {
  document: OpenApiDocument;
  name: string;
  property: Schema;
  /** null: not said (a response's fields). */
  required: boolean | null;
  depth: number;
}) {
  const resolved = resolveRef(document, property).schema;
  const nested = objectOf(document, property);
  return (
    <li>
      <div className={styles.propertyHead}>
        <code className={styles.propertyName}>{name}</code>
        <span className={styles.propertyType}>{typeLabel(document, property)}</span>
        {required === null ? null : required ? (
          <span className={styles.required}>required</span>
        ) : (
          <span className={styles.optional}>optional</span>
        )}
      </div>
      <Constraints schema={resolved} />
      {(property.description ?? resolved.description) && (
        <p className={styles.propertyText}>
          <InlineCode text={(property.description ?? resolved.description)!} />
        </p>
      )}
      {nested?.properties && depth + 1 < MAX_DEPTH && (
        <SchemaView document={document} schema={property} depth={depth + 1} input={required !== null} />
      )}
    </li>
  );
}

function Constraints({ schema }: { schema: Schema }) {
  const notes = constraintsOf(schema);
  if (notes.length === 0) return null;
  return <span className={styles.constraints}>{notes.join("; ")}</span>;
}
