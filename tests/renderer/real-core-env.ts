// Vitest environment for renderer tests against the real core (`// @vitest-environment real-core`; vitest.config.ts maps
// the name here). It is happy-dom's environment with one change: the Web APIs the core uses as Node gives them are
// Node's again. happy-dom replaces URL, fetch (with Request, Response, Headers, FormData), AbortController/AbortSignal
// and DOMException with its own; in the core that breaks fileURLToPath (happy-dom's URL is not Node's), sends the
// core's HTTP to the LLM test server through happy-dom's browser fetch (CORS, its own abort signals), and makes Node's
// streams reject happy-dom's AbortSignal. The DOM itself (window, document, elements, Event, EventTarget, Blob, File)
// stays happy-dom's, so the renderer sees the same page as under `happy-dom`. The renderer only needs these Web APIs
// to behave as the platform's, which Node's do.
import type { Environment } from 'vitest/environments';
import { builtinEnvironments } from 'vitest/runtime';

const NODE_KEYS = ['URL', 'URLSearchParams', 'fetch', 'Request', 'Response', 'Headers', 'FormData', 'AbortController', 'AbortSignal', 'DOMException'] as const;

const environment: Environment = {
  name: 'real-core',
  viteEnvironment: 'ssr',
  async setup(global: Record<string, unknown>, options) {
    const node = new Map(NODE_KEYS.map((key) => [key, global[key]]));
    const happy = await builtinEnvironments['happy-dom'].setup(global, options);
    for (const [key, value] of node) Object.defineProperty(global, key, { value, configurable: true, writable: true });
    return {
      async teardown(g) {
        await happy.teardown(g);
        for (const [key, value] of node) Object.defineProperty(global, key, { value, configurable: true, writable: true });
      },
    };
  },
};

export default environment;
