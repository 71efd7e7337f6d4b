import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "../config.ts";
import type { Database } from "../db/connection.ts";
import type { Model } from "../model/model.ts";

/** The Fastify instance with zod schemas as its type provider. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What route modules need: settings, the database and the immutable model. */
export interface AppDeps {
  config: Config;
  database: Database;
  model: Model;
}
