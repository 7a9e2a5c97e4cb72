/** The methods each registered path answers, so an unknown method on a known path is told apart from an unknown path. */
export interface RouteMethods {
  add(methods: string | string[], url: string): void;
  /** Every method some route answers for this concrete path, sorted; empty when no route matches it. */
  allowedFor(path: string): string[];
}

export function createRouteMethods(): RouteMethods {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  return {
    add(methods, url) {
      routes.push({ pattern: compileRoutePattern(url), methods: Array.isArray(methods) ? methods : [methods] });
    },
    allowedFor(path) {
      const allowed = new Set<string>();
      for (const route of routes) if (route.pattern.test(path)) route.methods.forEach((method) => allowed.add(method));
      return [...allowed].sort();
    },
  };
}

/** A Fastify path (`/runs/:run_id/cancel`, `/docs/*`) as an anchored regular expression over a concrete path. */
function compileRoutePattern(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+(?:\([^)]*\))?|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}
