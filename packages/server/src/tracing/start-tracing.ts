/**
 * The OpenTelemetry SDK, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans are batched
 * and sent over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`, with the SDK's own settings read from
 * the environment (OTEL_SERVICE_NAME, OTEL_BSP_SCHEDULE_DELAY, OTEL_EXPORTER_OTLP_HEADERS, ...).
 * Registering sets the global tracer, the AsyncLocalStorage context manager that carries the
 * active span through awaits, and W3C trace-context propagation. Answers the shutdown, which
 * sends the spans still batched.
 */
export async function startTracing(
  env: NodeJS.ProcessEnv = process.env,
): Promise<(() => Promise<void>) | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME ?? "ledgerline" }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  return () => provider.shutdown();
}
