// A Fastify plugin that applies to the whole app rather than to a scope of its own: what a plugin
// does is normally encapsulated (its hooks and handlers reach only its own routes), which is
// right for a group of routes and wrong for the access check or the error answers, which must
// reach every route. Fastify's documented switch for that is the `skip-override` symbol (what
// the fastify-plugin package sets).
import type { FastifyPluginAsync, FastifyPluginOptions } from "fastify";

export function rootPlugin<Options extends FastifyPluginOptions = Record<never, never>>(
  name: string,
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return Object.assign(plugin, { [Symbol.for("skip-override")]: true, [Symbol.for("fastify.display-name")]: name });
}
