import http from "node:http";
import type { AddressInfo } from "node:net";

/** A span as OTLP/HTTP JSON carries it (ids in hex). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

/** An OTLP/HTTP receiver on 127.0.0.1 that keeps every span sent to /v1/traces as JSON. */
export interface OtlpReceiver {
  endpoint: string;
  spans: ReceivedSpan[];
  /** Waits until a span satisfies `test` (or throws after `ms`). */
  waitFor(test: (span: ReceivedSpan) => boolean, ms?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url !== "/v1/traces" || !request.headers["content-type"]?.includes("json")) {
        response.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: { scopeSpans: { spans: ReceivedSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans)
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    async waitFor(test, ms = 20_000) {
      for (let waited = 0; ; waited += 50) {
        const found = spans.find(test);
        if (found) return found;
        if (waited > ms) throw new Error(`no such span among ${spans.length}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
