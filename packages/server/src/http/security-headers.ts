import fastifyHelmet from "@fastify/helmet";
import Fastify, { type FastifyInstance } from "fastify";
import { isReserved } from "./route-policy.ts";

const OPTIONS = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      objectSrc: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
};

/** The headers @fastify/helmet sets with the app's options, asked of it once on a throwaway instance. */
async function helmetHeaders(): Promise<[string, string][]> {
  const probe = Fastify({ logger: false });
  await probe.register(fastifyHelmet, OPTIONS);
  // Helmet has set its headers on the raw answer by the time the handler runs.
  probe.get("/", async (_request, reply) => reply.raw.getHeaders());
  const answer = await probe.inject({ method: "GET", url: "/" });
  await probe.close();
  return Object.entries(answer.json() as Record<string, string>);
}

/**
 * Sends helmet's security headers on every answer, 404s and errors included, as the plugin does.
 * The plugin builds helmet's middleware again for every request (parsing the policy each time,
 * ~0.03-0.08 ms a call); the headers never change, so they are asked of it once and copied.
 * The server's own answers (records, profiles, exports) are never stored by a browser or a shared
 * proxy: they hold what one user may read; the web app's files may be cached.
 */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = await helmetHeaders();
  app.addHook("onRequest", (request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    if (isReserved(request.url)) reply.raw.setHeader("cache-control", "no-store");
    done();
  });
}
