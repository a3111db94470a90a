// Runs once when the server starts. The Node-only start-up work lives in lib/startup.ts so the
// Edge build of this file does not see process.exit or the SQLite driver.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startUp } = await import("@/lib/startup");
    await startUp();
    // Once the environment is validated, before the first request: with OTEL_EXPORTER_OTLP_ENDPOINT
    // set, requests and their statements are traced; unset, nothing of OpenTelemetry is loaded.
    const { startTracing } = await import("@/lib/observability/tracing");
    await startTracing();
  }
}
