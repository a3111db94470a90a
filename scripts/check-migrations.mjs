// Exits 1 when schema.prisma and prisma/migrations disagree, printing the missing SQL.
import { diffMigrationsToSchema } from "./lib/schema-diff.mjs";

const sql = await diffMigrationsToSchema();
if (sql) {
  console.error("schema.prisma has changes no migration carries. Run `npm run db:migration -- <name>`:\n" + sql);
  process.exit(1);
}
console.log("schema.prisma and the migrations agree.");
