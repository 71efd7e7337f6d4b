import { type Span, SpanStatusCode, trace } from "@opentelemetry/api";

/**
 * Ledgerline's spans, through the OpenTelemetry API only: until start-tracing.ts registers the
 * SDK (OTEL_EXPORTER_OTLP_ENDPOINT set), every span is the API's no-op one and costs nothing.
 */
export const tracer = trace.getTracer("ledgerline");

/** Runs `work` in a span of its own, a child of the active one; a failure marks the span. */
export function inSpan<T>(
  name: string,
  attributes: Record<string, string | number | boolean>,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks a span as failed by `error`. */
export function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
}
