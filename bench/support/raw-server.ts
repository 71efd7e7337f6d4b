import Fastify, { type FastifyInstance } from "fastify";
import type { RawQuery } from "./app.ts";

export interface RawStatement {
  text: string;
  params: readonly unknown[];
}

/** The SQL one app request runs for its answer: the page, and the count beside it. */
export interface RawEndpoint {
  page: RawStatement;
  count: RawStatement;
}

export interface RawServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The raw baseline: a minimal Fastify app whose POST /raw/<name> runs the same SQL the app runs for
 * that query (page and count at once, as the app does) straight on the driver and answers the rows
 * as JSON, with no session, rights, validation or mapping.
 */
export async function startRawServer(
  query: RawQuery,
  endpoints: Readonly<Record<string, RawEndpoint>>,
): Promise<RawServer> {
  const app: FastifyInstance = Fastify({ logger: false });
  app.post<{ Params: { name: string } }>("/raw/:name", async (request, reply) => {
    const endpoint = endpoints[request.params.name];
    if (!endpoint) return reply.code(404).send({ error: "unknown" });
    const [data, counted] = await Promise.all([
      query(endpoint.page.text, endpoint.page.params),
      query(endpoint.count.text, endpoint.count.params),
    ]);
    const first = (counted[0] ?? {}) as Record<string, unknown>;
    return { data, querySize: Number(Object.values(first)[0] ?? 0) };
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no TCP address");
  return { url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}
